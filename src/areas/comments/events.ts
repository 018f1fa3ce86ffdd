/** What comments tell other areas. */
import type { DecisionContext } from '../../platform/moderation/decision-context.ts';

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /**
     * A new comment (or reply) on a media. `parentAuthorId`: the author of the comment it answers (null
     * at top level); `mentions`: the mentioned users' ids; `commentsWritten`: the author's comments that
     * are not deleted, this one included.
     */
    'comment.created': {
      commentId: string;
      mediaId: string;
      mediaOwnerId: string;
      authorId: string;
      parentAuthorId: string | null;
      mentions: string[];
      commentsWritten: number;
    };
    /**
     * A moderator deleted a live comment (a report's action), in the transaction of the deletion;
     * `body` is the text the placeholder lost. The appeals area records the decision.
     */
    'comment.removedByModerator': {
      commentId: string;
      mediaId: string;
      authorId: string;
      body: string;
      context: DecisionContext;
    };
  }
}
