/** All SQL of tracking: clicks, conversions, reports per target and a creator's earnings. */
import { type AnyColumn, and, asc, eq, getTableColumns, gt, gte, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import {
  type ClickRow,
  type ConversionRow,
  trackingClickLocks,
  trackingClicks,
  trackingConversions,
} from './tables.ts';

export type NewClick = ClickRow;
export type NewConversion = ConversionRow;

/** Who a click is counted for when looking for duplicates: a user, or an anonymous visitor's key. */
export type ClickerKey = { viewerId: string } | { visitorKey: string };

export type TargetType = 'offer' | 'media' | 'user' | 'establishment';

/** The click column a report's target type filters on ('user' is the creator credited). */
const targetColumn = {
  offer: trackingClicks.offerId,
  media: trackingClicks.mediaId,
  user: trackingClicks.creatorId,
  establishment: trackingClicks.establishmentId,
} as const;

export interface Window {
  from: Date | null;
  to: Date | null;
}

export interface CurrencyTotals {
  currency: string;
  conversions: number;
  revenue: bigint;
  commission: bigint;
}

/** A creator's earning: one conversion of a click credited to them. */
export interface Earning {
  id: string;
  clickRef: string;
  offerId: string;
  mediaId: string | null;
  /** A conversion of the creator's own click: shown, never credited (commission 0). */
  ownClick: boolean;
  currency: string;
  commission: bigint;
  occurredAt: Date;
  createdAt: Date;
}

/** A creator's earnings, newest recorded first. */
export const earningsKeyset = defineKeyset<Earning>({
  name: 'earnings',
  shape: ['timestamp', 'uuid'],
  columns: [trackingConversions.createdAt, trackingConversions.id],
  keyOf: (row) => [row.createdAt, row.id],
});

/** A click that earns its creator: human, on a public media (a creator), not the creator's own (`credited`). */
const creditedClick = sql`NOT ${trackingClicks.bot} AND ${trackingClicks.creatorId} IS NOT NULL AND NOT ${trackingClicks.ownClick}`;

const windowOf = (column: AnyColumn, { from, to }: Window) =>
  and(from === null ? undefined : gte(column, from), to === null ? undefined : lt(column, to));

export class TrackingRepository extends Repository {
  // ---- clicks ----

  async insertClick(row: NewClick): Promise<void> {
    await this.db.insert(trackingClicks).values(row);
  }

  /** The latest click of this clicker on this offer and media since `since`, bot or not as this one, if any. */
  async findDuplicate(
    offerId: string,
    mediaId: string | null,
    clicker: ClickerKey,
    bot: boolean,
    since: Date,
  ): Promise<ClickRow | null> {
    const who =
      'viewerId' in clicker
        ? eq(trackingClicks.viewerId, clicker.viewerId)
        : eq(trackingClicks.visitorKey, clicker.visitorKey);
    const [row] = await this.db
      .select()
      .from(trackingClicks)
      .where(
        and(
          eq(trackingClicks.offerId, offerId),
          who,
          mediaId === null ? sql`${trackingClicks.mediaId} IS NULL` : eq(trackingClicks.mediaId, mediaId),
          eq(trackingClicks.bot, bot),
          gte(trackingClicks.createdAt, since),
        ),
      )
      .orderBy(sql`${trackingClicks.createdAt} DESC`)
      .limit(1);
    return row ?? null;
  }

  /**
   * Locks this clicker's row for the offer and media until the transaction ends (inserting it if
   * needed): a concurrent identical click waits here, then finds this one's click.
   */
  async lockClicker(key: string, now: Date): Promise<void> {
    await this.db
      .insert(trackingClickLocks)
      .values({ key, lockedAt: now })
      .onConflictDoUpdate({ target: trackingClickLocks.key, set: { lockedAt: now } });
  }

  /** Forgets the visitor keys and clicker locks older than the duplicate window (they served their purpose). */
  async clearVisitorKeys(before: Date): Promise<void> {
    await this.db.delete(trackingClickLocks).where(lt(trackingClickLocks.lockedAt, before));
    await this.db
      .update(trackingClicks)
      .set({ visitorKey: null })
      .where(and(isNotNull(trackingClicks.visitorKey), lt(trackingClicks.createdAt, before)));
  }

  /** An erased account's clicks forget who made them (what they earned their creators stays). */
  async forgetViewer(userId: string): Promise<void> {
    await this.db.update(trackingClicks).set({ viewerId: null }).where(eq(trackingClicks.viewerId, userId));
  }

  /**
   * An account deleted by its owner (`user.erasing`): clicks and conversions stay (they are the
   * partners' commission accounting) but no longer name it, as clicker or as the creator whose post
   * carried the offer (that post is deleted with the account, so its id goes too).
   */
  async eraseUser(userId: string): Promise<void> {
    await this.forgetViewer(userId);
    await this.db
      .update(trackingClicks)
      .set({ creatorId: null, mediaId: null })
      .where(eq(trackingClicks.creatorId, userId));
  }

  async findClick(ref: string): Promise<ClickRow | null> {
    const [row] = await this.db.select().from(trackingClicks).where(eq(trackingClicks.ref, ref));
    return row ?? null;
  }

  // ---- conversions ----

  async insertConversion(row: NewConversion): Promise<void> {
    await this.db.insert(trackingConversions).values(row);
  }

  async findConversionByPartnerId(partnerTransactionId: string): Promise<ConversionRow | null> {
    const [row] = await this.db
      .select()
      .from(trackingConversions)
      .where(eq(trackingConversions.partnerTransactionId, partnerTransactionId));
    return row ?? null;
  }

  /** A click's conversions, oldest first (at most `limit`). */
  conversionsOf(ref: string, limit: number): Promise<ConversionRow[]> {
    return this.db
      .select()
      .from(trackingConversions)
      .where(eq(trackingConversions.clickRef, ref))
      .orderBy(asc(trackingConversions.createdAt), asc(trackingConversions.id))
      .limit(limit);
  }

  // ---- reports ----

  /**
   * Clicks, credited clicks (human, with a creator, not theirs), bot clicks and the creators' own
   * clicks on a target, by click time inside the window.
   */
  async clickCounts(
    type: TargetType,
    id: string,
    window: Window,
  ): Promise<{ clicks: number; credited: number; bots: number; own: number }> {
    const [row] = await this.db
      .select({
        clicks: sql<number>`count(*)::int`,
        credited: sql<number>`(count(*) FILTER (WHERE ${creditedClick}))::int`,
        bots: sql<number>`(count(*) FILTER (WHERE ${trackingClicks.bot}))::int`,
        own: sql<number>`(count(*) FILTER (WHERE ${trackingClicks.ownClick}))::int`,
      })
      .from(trackingClicks)
      .where(and(eq(targetColumn[type], id), windowOf(trackingClicks.createdAt, window)));
    return { clicks: row?.clicks ?? 0, credited: row?.credited ?? 0, bots: row?.bots ?? 0, own: row?.own ?? 0 };
  }

  /** Conversions of a target's clicks, by conversion time inside the window, per currency. */
  async conversionTotals(type: TargetType, id: string, window: Window): Promise<CurrencyTotals[]> {
    return this.totals(and(eq(targetColumn[type], id), windowOf(trackingConversions.occurredAt, window)) ?? sql`true`);
  }

  /** A creator's earnings per currency (conversions of their credited clicks). */
  earningTotals(creatorId: string): Promise<CurrencyTotals[]> {
    return this.totals(sql`${trackingClicks.creatorId} = ${creatorId} AND ${creditedClick}`);
  }

  private async totals(where: SQL): Promise<CurrencyTotals[]> {
    const conversion = trackingConversions;
    const rows = await queryRows<{ currency: string; conversions: number; revenue: string; commission: string }>(
      this.db,
      sql`
      SELECT ${conversion.currency} AS currency, count(*)::int AS conversions,
             sum(${conversion.amount})::text AS revenue, sum(${conversion.commission})::text AS commission
      FROM ${conversion} JOIN ${trackingClicks} ON ${trackingClicks.ref} = ${conversion.clickRef}
      WHERE ${where}
      GROUP BY ${conversion.currency} ORDER BY ${conversion.currency}`,
    );
    return rows.map((row) => ({
      currency: row.currency,
      conversions: row.conversions,
      revenue: BigInt(row.revenue),
      commission: BigInt(row.commission),
    }));
  }

  /** limit + 1 earnings of a creator for one page: their credited clicks' conversions and their own clicks'. */
  earnings(creatorId: string, page: PageRequest): Promise<Earning[]> {
    const { where, orderBy } = keyset(earningsKeyset, page);
    return this.db
      .select({
        id: trackingConversions.id,
        clickRef: trackingConversions.clickRef,
        offerId: trackingClicks.offerId,
        mediaId: trackingClicks.mediaId,
        ownClick: trackingClicks.ownClick,
        currency: trackingConversions.currency,
        commission: trackingConversions.commission,
        occurredAt: trackingConversions.occurredAt,
        createdAt: trackingConversions.createdAt,
      })
      .from(trackingConversions)
      .innerJoin(trackingClicks, eq(trackingClicks.ref, trackingConversions.clickRef))
      .where(and(eq(trackingClicks.creatorId, creatorId), eq(trackingClicks.bot, false), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /**
   * The data export's tracking rows of a user, in keyset batches: `clicks` they made on offers (by
   * ref, without the anonymous visitor key), `conversions` of those clicks (their purchases, by id),
   * and `earnings`, the conversions credited to them as creator (their commission, by id).
   */
  async exportRows(
    userId: string,
    kind: 'clicks' | 'conversions' | 'earnings',
    after: string | null,
    limit: number,
  ): Promise<Record<string, unknown>[]> {
    if (kind === 'clicks') {
      const { visitorKey: _anonymous, ...columns } = getTableColumns(trackingClicks);
      return this.db
        .select(columns)
        .from(trackingClicks)
        .where(and(eq(trackingClicks.viewerId, userId), after === null ? undefined : gt(trackingClicks.ref, after)))
        .orderBy(trackingClicks.ref)
        .limit(limit);
    }
    const conversion = {
      id: trackingConversions.id,
      clickRef: trackingConversions.clickRef,
      offerId: trackingClicks.offerId,
      mediaId: trackingClicks.mediaId,
      currency: trackingConversions.currency,
      commission: trackingConversions.commission,
      occurredAt: trackingConversions.occurredAt,
      createdAt: trackingConversions.createdAt,
    };
    return this.db
      .select(kind === 'conversions' ? { ...conversion, amount: trackingConversions.amount } : conversion)
      .from(trackingConversions)
      .innerJoin(trackingClicks, eq(trackingClicks.ref, trackingConversions.clickRef))
      .where(
        and(
          eq(kind === 'conversions' ? trackingClicks.viewerId : trackingClicks.creatorId, userId),
          after === null ? undefined : gt(trackingConversions.id, after),
        ),
      )
      .orderBy(trackingConversions.id)
      .limit(limit);
  }
}
