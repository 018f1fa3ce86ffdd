/**
 * Appeals by the users decisions touched: one per decision, until its window closes, by a signed-in
 * user (POST /api/users/me/appeals) or by the single-use link mailed to a banned one (POST /api/appeals,
 * and the web page /appeal). Anything refused changes nothing.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { isLowercaseUuid, newId } from '../../platform/ids/ids.ts';
import { hashToken } from '../../platform/secrets/opaque-tokens.ts';
import { visibleText } from '../../platform/text/visible-text.ts';
import type { AppealsRepository, AppealWithDecision } from './appeals.repository.ts';
import type { AppealRow, DecisionRow } from './tables.ts';

/** The longest appeal text, in characters once cleaned and trimmed (docs/api.md). */
export const maxAppealTextLength = 2000;

const decisionNotFound = () =>
  new AppError('notFound', { source: { pointer: '/decisionId' }, detail: 'no such decision about you' });

/** The appeal's text, cleaned; 422 when it is empty or too long. */
export function checkedAppealText(raw: string): string {
  const text = visibleText(raw, { multiline: true });
  if (text === null || [...text].length > maxAppealTextLength) {
    throw new AppError('validationFailed', {
      source: { pointer: '/text' },
      detail: `1 to ${maxAppealTextLength} characters once trimmed`,
    });
  }
  return text;
}

export interface AppealsServiceDeps {
  transactions: Transactions;
  repository: AppealsRepository;
  clock: Clock;
}

export class AppealsService {
  readonly #deps: AppealsServiceDeps;

  constructor(deps: AppealsServiceDeps) {
    this.#deps = deps;
  }

  /** A signed-in user appeals a decision about them. */
  async file(userId: string, decisionId: string, rawText: string, locale: Locale): Promise<AppealWithDecision> {
    const text = checkedAppealText(rawText);
    const id = decisionId.toLowerCase();
    const decision = isLowercaseUuid(id) ? await this.#deps.repository.findDecision(id) : null;
    if (decision === null || decision.userId !== userId) throw decisionNotFound();
    return this.#deps.transactions.run(() => this.#insert(decision, text, locale));
  }

  /** A banned user appeals with the link mailed with the decision: it works once, until the window closes. */
  async fileByLink(token: string, rawText: string, locale: Locale): Promise<AppealWithDecision> {
    const text = checkedAppealText(rawText);
    const link = await this.checkLink(token);
    const decision = await this.#deps.repository.findDecision(link.decisionId);
    if (decision === null) throw new AppError('invalidToken', { source: { pointer: '/token' } });
    return this.#deps.transactions.run(async () => {
      // Of two uses at once, one spends the link; the other is tokenUsed and does nothing.
      if (!(await this.#deps.repository.useLink(link.decisionId, this.#deps.clock.now()))) {
        throw new AppError('tokenUsed', { source: { pointer: '/token' } });
      }
      return this.#insert(decision, text, locale);
    });
  }

  /** The mailed link if it can still be used (the page's GET); otherwise the documented error. Writes nothing. */
  async checkLink(token: string): Promise<{ decisionId: string; expiresAt: Date }> {
    const link = await this.#deps.repository.findLink(hashToken(token));
    if (link === null) throw new AppError('invalidToken', { source: { pointer: '/token' } });
    if (link.usedAt !== null) throw new AppError('tokenUsed', { source: { pointer: '/token' } });
    if (link.expiresAt.getTime() <= this.#deps.clock.now().getTime()) {
      throw new AppError('tokenExpired', {
        source: { pointer: '/token' },
        meta: { expiredAt: formatTimestamp(link.expiresAt) },
      });
    }
    return link;
  }

  /** The user's appeals, newest first (limit + 1 rows). */
  listOf(userId: string, page: PageRequest): Promise<AppealWithDecision[]> {
    return this.#deps.repository.listAppealsOf(userId, page);
  }

  async #insert(decision: DecisionRow, text: string, locale: Locale): Promise<AppealWithDecision> {
    const now = this.#deps.clock.now();
    if (decision.appealUntil.getTime() <= now.getTime()) {
      throw new AppError('appealWindowClosed', {
        source: { pointer: '/decisionId' },
        meta: { appealUntil: formatTimestamp(decision.appealUntil) },
      });
    }
    // The unique decision_id decides between two appeals at once: the second is 409.
    const appeal: AppealRow | null = await this.#deps.repository.insertAppeal({
      id: newId(),
      decisionId: decision.id,
      userId: decision.userId,
      text,
      locale,
      createdAt: now,
    });
    if (appeal === null) throw new AppError('alreadyAppealed', { source: { pointer: '/decisionId' } });
    return { appeal, decision };
  }
}
