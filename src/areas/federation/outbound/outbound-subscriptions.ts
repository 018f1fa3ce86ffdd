/**
 * The events outbound follows (docs/api.md, Federation), subscribed only with FEDERATION=on: media's
 * events mark the post to be sent once settled (post-sync.ts), in the transaction of the change; an
 * account's erasure queues the Delete of its actor in the erasure's transaction, first of all the
 * subscribers, while its follows and keys are still there.
 */
import type { EventBus } from '../../../platform/events/domain-events.ts';
import type { FederationRuntime } from '../federation-runtime.ts';
import type { PostSync } from './post-sync.ts';

export function subscribeOutbound(events: EventBus, postSync: PostSync, federation: FederationRuntime): void {
  events.subscribe('media.published', 'inTransaction', 'federation.postPublished', ({ media }) =>
    postSync.mediaChanged(media, false),
  );
  events.subscribe('media.changed', 'inTransaction', 'federation.postChanged', ({ media }) =>
    postSync.mediaChanged(media, false),
  );
  events.subscribe('media.deleted', 'inTransaction', 'federation.postDeleted', ({ media }) =>
    postSync.mediaChanged(media, true),
  );
  events.subscribe('media.hiddenByModerator', 'inTransaction', 'federation.postHidden', ({ media }) =>
    postSync.mediaChanged(media, true),
  );
  events.subscribe(
    'user.erasing',
    'inTransaction',
    'federation.deleteActor',
    ({ userId }) => federation.deleteActor(userId),
    {
      first: true,
    },
  );
}
