/**
 * Moderation decisions: recorded in the transaction of the action (media hidden, comment deleted by a
 * moderator, ban started: the owning areas' events), and told to the user by a mail filed in that
 * transaction. A decision may be appealed once until its window closes (`appealWindowDays` after it);
 * a banned user, who cannot sign in, gets a single-use link valid until then.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { DecisionContext } from '../../platform/moderation/decision-context.ts';
import { hashToken, newSecretToken } from '../../platform/secrets/opaque-tokens.ts';
import type { AppealMails } from './appeal-mails.ts';
import type { AppealsRepository, DecisionWithAppeal } from './appeals.repository.ts';
import type { DecisionKind, DecisionRow } from './tables.ts';

/** How long after a decision it may be appealed (docs/api.md). */
export const appealWindowDays = 30;

/** What the owning area's event tells of the action. */
export interface DecisionInput {
  userId: string;
  kind: DecisionKind;
  targetId: string;
  mediaId?: string | null;
  previousFlag?: number | null;
  removedText?: string | null;
  banUntil?: Date | null;
  context: DecisionContext;
}

export interface DecisionsServiceDeps {
  transactions: Transactions;
  repository: AppealsRepository;
  mails: AppealMails;
  clock: Clock;
}

export class DecisionsService {
  readonly #deps: DecisionsServiceDeps;

  constructor(deps: DecisionsServiceDeps) {
    this.#deps = deps;
  }

  /** Records the decision and files its mail (with an appeal link for a ban), in the action's transaction. */
  async record(input: DecisionInput): Promise<DecisionRow> {
    return this.#deps.transactions.run(async () => {
      const now = this.#deps.clock.now();
      const decision = await this.#deps.repository.insertDecision({
        id: newId(),
        userId: input.userId,
        kind: input.kind,
        targetId: input.targetId,
        mediaId: input.mediaId ?? null,
        previousFlag: input.previousFlag ?? null,
        removedText: input.removedText ?? null,
        reportId: input.context.reportId,
        reportReason: input.context.reportReason,
        note: input.context.note,
        banUntil: input.banUntil ?? null,
        createdAt: now,
        appealUntil: new Date(now.getTime() + appealWindowDays * 86_400_000),
      });
      let token: string | null = null;
      if (decision.kind === 'userBanned') {
        token = newSecretToken('tma');
        await this.#deps.repository.insertLink({
          decisionId: decision.id,
          tokenHash: hashToken(token),
          expiresAt: decision.appealUntil,
        });
      }
      await this.#deps.mails.fileDecision(decision, token);
      return decision;
    });
  }

  /** The user's decisions, newest first (limit + 1 rows). */
  listOf(userId: string, page: PageRequest): Promise<DecisionWithAppeal[]> {
    return this.#deps.repository.listDecisions(userId, page);
  }
}
