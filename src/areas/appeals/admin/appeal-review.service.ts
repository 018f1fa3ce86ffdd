/**
 * Appeals for operators: the list, and the outcome. Upheld leaves the decision in force; reversed
 * undoes it through the owning area (reversal.ts) in the same transaction as the outcome, its audit
 * entry and the user's outcome mail, so a reversal that cannot be done leaves the appeal pending.
 */
import type { AuditLog } from '../../../platform/audit/audit-log.ts';
import type { Clock } from '../../../platform/clock.ts';
import { type Page, pageOf } from '../../../platform/db/page.ts';
import type { PageRequest } from '../../../platform/db/page-request.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { visibleText } from '../../../platform/text/visible-text.ts';
import type { AppealMails } from '../appeal-mails.ts';
import { type AppealsRepository, type AppealWithDecision, adminAppealsKeyset } from '../appeals.repository.ts';
import type { DecisionReversal } from '../reversal.ts';
import type { AppealOutcome, AppealStatus } from '../tables.ts';

/** The longest answer to an appeal, in characters once cleaned and trimmed. */
export const maxResponseLength = 2000;

export interface AppealDecisionInput {
  outcome: AppealOutcome;
  /** The moderator's answer, told to the user. */
  response?: string | null;
}

export interface AppealReviewServiceDeps {
  transactions: Transactions;
  audit: AuditLog;
  repository: AppealsRepository;
  reversal: DecisionReversal;
  mails: AppealMails;
  clock: Clock;
}

export class AppealReviewService {
  readonly #deps: AppealReviewServiceDeps;

  constructor(deps: AppealReviewServiceDeps) {
    this.#deps = deps;
  }

  async list(
    status: AppealStatus | undefined,
    page: PageRequest,
  ): Promise<{ page: Page<AppealWithDecision>; total: number }> {
    const [rows, total] = await Promise.all([
      this.#deps.repository.listAppeals(status, page),
      this.#deps.repository.countAppeals(status),
    ]);
    return { page: pageOf(rows, page, adminAppealsKeyset), total };
  }

  /** Decides a pending appeal (409 appealAlreadyDecided otherwise); a reversal undoes the decision. */
  async decide(id: string, input: AppealDecisionInput): Promise<AppealWithDecision & { undone: boolean }> {
    const response = this.#checkedResponse(input.response);
    const found = await this.#deps.repository.findAppeal(id);
    if (found === null) throw new AppError('notFound', { source: { parameter: 'id' } });
    if (found.appeal.status !== 'pending') throw new AppError('appealAlreadyDecided', { source: { parameter: 'id' } });
    return this.#deps.transactions.run(async () => {
      const now = this.#deps.clock.now();
      // Of two outcomes at once, one wins here; the other is 409 and does nothing.
      const appeal = await this.#deps.repository.decidePending(id, input.outcome, response, now);
      if (appeal === null) throw new AppError('appealAlreadyDecided', { source: { parameter: 'id' } });
      let decision = found.decision;
      let undone = false;
      if (input.outcome === 'reversed') {
        undone = await this.#deps.reversal.undo(decision);
        await this.#deps.repository.markReversed(decision.id, now);
        decision = { ...decision, reversedAt: now };
      }
      // Ids and enums only: no text of the user's in the audit log.
      await this.#deps.audit.record({
        actor: 'admin',
        action: 'appeal.decide',
        targetType: 'appeal',
        targetId: appeal.id,
        payload: {
          outcome: input.outcome,
          decisionId: decision.id,
          kind: decision.kind,
          targetId: decision.targetId,
          userId: decision.userId,
          undone,
        },
      });
      await this.#deps.mails.fileOutcome(appeal, decision);
      return { appeal, decision, undone };
    });
  }

  #checkedResponse(raw: string | null | undefined): string | null {
    if (raw === undefined || raw === null) return null;
    const response = visibleText(raw, { multiline: true });
    if (response === null || [...response].length > maxResponseLength) {
      throw new AppError('validationFailed', {
        source: { pointer: '/response' },
        detail: `1 to ${maxResponseLength} characters once trimmed, or null`,
      });
    }
    return response;
  }
}
