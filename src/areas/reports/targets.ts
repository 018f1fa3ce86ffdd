/**
 * What reports needs of the areas that own its targets, by the names those areas give it: comments'
 * reporting and moderation reads and removal, and accounts' ban. The module passes the real services;
 * both join the transaction in progress.
 */
import type { DecisionContext } from '../../platform/moderation/decision-context.ts';
import type { UserRow } from '../accounts/read-model.ts';

export interface ReportableComments {
  /** The comment, when it exists and the viewer may see it; null otherwise. */
  findReportable(
    commentId: string,
    viewerId: string,
  ): Promise<{ id: string; mediaId: string; authorId: string } | null>;
  /** The comment as a moderator sees it, deleted or not; null when there is no such comment. */
  findForModeration(commentId: string): Promise<{
    id: string;
    mediaId: string;
    authorId: string | null;
    body: string | null;
    deleted: boolean;
    authorBanned: boolean;
    createdAt: Date;
  } | null>;
  /** Turns the comment into a deleted placeholder; false when there was nothing to delete. */
  removeAsModerator(commentId: string, context: DecisionContext): Promise<boolean>;
}

export interface UserBans {
  /** Bans the user (404 AppError when unknown). */
  ban(
    userId: string,
    input: { reason: string; until: Date | null },
    actor: string,
    context: DecisionContext,
  ): Promise<UserRow>;
}
