/**
 * What an appeal's reversal undoes, through the owning area's one path for it, in the reversal's
 * transaction (so its effects are those of that path: counters, lists, events, audit): media put back
 * to the flag it had, the comment given back its text, the ban lifted.
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { ModerationService } from '../accounts/public.ts';
import type { CommentsService } from '../comments/public.ts';
import { type MediaAdminService, mediaFlags } from '../media/public.ts';
import type { DecisionRow } from './tables.ts';

const notReversible = (detail: string) => new AppError('decisionNotReversible', { detail });

const isNotFound = (error: unknown) => error instanceof AppError && error.code === 'notFound';

export interface DecisionReversalDeps {
  mediaAdmin: MediaAdminService;
  comments: CommentsService;
  moderation: ModerationService;
}

export class DecisionReversal {
  readonly #deps: DecisionReversalDeps;

  constructor(deps: DecisionReversalDeps) {
    this.#deps = deps;
  }

  /**
   * Undoes the decision; false when nothing was left to undo (the media shown again or the ban lifted
   * meanwhile). 409 decisionNotReversible when its target is gone.
   */
  async undo(decision: DecisionRow): Promise<boolean> {
    switch (decision.kind) {
      case 'mediaHidden':
        return this.#unhide(decision);
      case 'commentDeleted':
        if (!(await this.#deps.comments.restoreAsModerator(decision.targetId, decision.removedText ?? ''))) {
          throw notReversible('the comment or its media is gone');
        }
        return true;
      case 'userBanned':
        try {
          return (await this.#deps.moderation.unban(decision.targetId, 'admin')).changed;
        } catch (error) {
          if (isNotFound(error)) throw notReversible('the account is erased');
          throw error;
        }
    }
  }

  async #unhide(decision: DecisionRow): Promise<boolean> {
    try {
      const media = await this.#deps.mediaAdmin.require(decision.targetId);
      if (media.flag < mediaFlags.hidden) return false;
      await this.#deps.mediaAdmin.setFlag(decision.targetId, decision.previousFlag ?? mediaFlags.none);
      return true;
    } catch (error) {
      if (isNotFound(error)) throw notReversible('the media is deleted');
      throw error;
    }
  }
}
