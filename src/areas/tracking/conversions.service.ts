/**
 * Partner postbacks (conversions) and what they earn, and the admin and creator reports
 * (docs/api.md, "Clicks, redirects and commissions").
 */
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { parseClientTime } from '../../platform/http/time.ts';
import { newId } from '../../platform/ids/ids.ts';
import { isCurrency } from '../../platform/money/currencies.ts';
import { isClickRef } from './click-ref.ts';
import { commissionOf } from './money.ts';
import type { ClickRow, ConversionRow } from './tables.ts';
import type { CurrencyTotals, Earning, TargetType, TrackingRepository, Window } from './tracking.repository.ts';

/** A conversion counts for a click when it occurred at most this long after it. */
export const attributionWindowMs = 30 * 24 * 60 * 60 * 1000;
/** How far ahead of the server's clock a partner's occurredAt may be (clock skew). */
const futureSkewMs = 5 * 60 * 1000;
/** The conversions shown with one click. */
export const conversionsPerClick = 100;

export interface ConversionInput {
  ref: string;
  amount: number;
  currency: string;
  partnerTransactionId: string;
  occurredAt?: string | undefined;
}

export interface RecordedConversion {
  conversion: ConversionRow;
  /** True when this partnerTransactionId was already recorded: the first result, nothing written. */
  replay: boolean;
}

export interface ClickReport {
  click: ClickRow;
  conversions: ConversionRow[];
  totals: CurrencyTotals[];
}

export interface TargetReport {
  clicks: number;
  creditedClicks: number;
  botClicks: number;
  ownClicks: number;
  totals: CurrencyTotals[];
}

/** Whether a click earns its creator anything: a human click on a public media, not by its owner. */
export const credited = (click: ClickRow): boolean => !click.bot && click.creatorId !== null && !click.ownClick;

function totalsOf(conversions: ConversionRow[]): CurrencyTotals[] {
  const byCurrency = new Map<string, CurrencyTotals>();
  for (const row of conversions) {
    const total = byCurrency.get(row.currency) ?? {
      currency: row.currency,
      conversions: 0,
      revenue: 0n,
      commission: 0n,
    };
    total.conversions += 1;
    total.revenue += row.amount;
    total.commission += row.commission;
    byCurrency.set(row.currency, total);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

export interface ConversionsServiceDeps {
  transactions: Transactions;
  repository: TrackingRepository;
  audit: AuditLog;
  clock: Clock;
}

export class ConversionsService {
  readonly #deps: ConversionsServiceDeps;

  constructor(deps: ConversionsServiceDeps) {
    this.#deps = deps;
  }

  async record(input: ConversionInput): Promise<RecordedConversion> {
    const earlier = await this.#deps.repository.findConversionByPartnerId(input.partnerTransactionId);
    if (earlier !== null) return { conversion: earlier, replay: true };
    const row = await this.#validated(input);
    try {
      // A savepoint inside a caller's transaction, which the read of the winner below goes on in.
      await this.#deps.transactions.attempt(async () => {
        await this.#deps.repository.insertConversion(row);
        await this.#deps.audit.record({
          actor: 'admin',
          action: 'tracking.conversion',
          targetType: 'trackingClick',
          targetId: row.clickRef,
          payload: {
            conversionId: row.id,
            partnerTransactionId: row.partnerTransactionId,
            amount: row.amount.toString(),
            currency: row.currency,
            commission: row.commission.toString(),
          },
        });
      });
      return { conversion: row, replay: false };
    } catch (error) {
      // The same postback raced this one and won: answer its result.
      if (uniqueViolation(error) === null) throw error;
      const winner = await this.#deps.repository.findConversionByPartnerId(input.partnerTransactionId);
      if (winner === null) throw error;
      return { conversion: winner, replay: true };
    }
  }

  async #validated(input: ConversionInput): Promise<ConversionRow> {
    if (!isCurrency(input.currency))
      throw new AppError('validationFailed', {
        source: { pointer: '/currency' },
        detail: 'Not an ISO 4217 currency code',
      });
    const now = this.#deps.clock.now();
    let occurredAt = now;
    if (input.occurredAt !== undefined) {
      const parsed = parseClientTime(input.occurredAt);
      if (parsed === null || parsed.getTime() > now.getTime() + futureSkewMs)
        throw new AppError('validationFailed', {
          source: { pointer: '/occurredAt' },
          detail: 'An RFC 3339 time, not in the future',
        });
      occurredAt = parsed;
    }
    const click = isClickRef(input.ref) ? await this.#deps.repository.findClick(input.ref) : null;
    if (click === null)
      throw new AppError('notFound', { source: { pointer: '/ref' }, detail: 'No click with this ref' });
    if (input.currency !== click.currency)
      throw new AppError('currencyMismatch', {
        source: { pointer: '/currency' },
        meta: { expected: click.currency },
      });
    const windowEnds = new Date(click.createdAt.getTime() + attributionWindowMs);
    if (occurredAt < click.createdAt || occurredAt > windowEnds)
      throw new AppError('outsideAttributionWindow', {
        source: { pointer: input.occurredAt === undefined ? '/ref' : '/occurredAt' },
        meta: { clickedAt: click.createdAt.toISOString(), windowEndsAt: windowEnds.toISOString() },
      });
    const amount = BigInt(input.amount);
    return {
      id: newId(),
      clickRef: click.ref,
      partnerTransactionId: input.partnerTransactionId,
      amount,
      currency: input.currency,
      commission: credited(click) ? commissionOf(amount, click.commissionRateBps) : 0n,
      occurredAt,
      createdAt: now,
    };
  }

  async clickReport(ref: string): Promise<ClickReport> {
    const click = isClickRef(ref) ? await this.#deps.repository.findClick(ref) : null;
    if (click === null) throw new AppError('notFound');
    const conversions = await this.#deps.repository.conversionsOf(ref, conversionsPerClick);
    return { click, conversions, totals: totalsOf(conversions) };
  }

  async targetReport(type: TargetType, id: string, window: Window): Promise<TargetReport> {
    const [counts, totals] = await Promise.all([
      this.#deps.repository.clickCounts(type, id, window),
      this.#deps.repository.conversionTotals(type, id, window),
    ]);
    return {
      clicks: counts.clicks,
      creditedClicks: counts.credited,
      botClicks: counts.bots,
      ownClicks: counts.own,
      totals,
    };
  }

  earnings(creatorId: string, page: PageRequest): Promise<Earning[]> {
    return this.#deps.repository.earnings(creatorId, page);
  }

  earningTotals(creatorId: string): Promise<CurrencyTotals[]> {
    return this.#deps.repository.earningTotals(creatorId);
  }
}
