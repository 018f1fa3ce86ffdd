/** What media tell other areas. */
import type { DecisionContext } from '../../platform/moderation/decision-context.ts';
import type { MediaRow } from './tables.ts';

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /** A post was published; `publishedCount`: the owner's published posts, this one included. */
    'media.published': { media: MediaRow; publishedCount: number };
    /** What others see of a post changed: its description and hashtags, publication or flag. `media` is the row after. */
    'media.changed': { media: MediaRow };
    /**
     * A media's likes count moved (a like, an unlike, an erased liker's likes, an operator's recount),
     * in the transaction of the change.
     */
    'media.likesChanged': { mediaId: string };
    /** A media (post, avatar or cover) was deleted; `media` is the row as it was. */
    'media.deleted': { media: MediaRow };
    /**
     * An operator hid a post (its flag went from below `hidden` to `hidden`: PUT /admin/media/{hex}/flag
     * or a report's action), in the transaction of the change, after `media.changed`; `previousFlag` is
     * the flag an appeal's reversal puts back. The appeals area records the decision.
     */
    'media.hiddenByModerator': { media: MediaRow; previousFlag: number; context: DecisionContext };
  }
}
