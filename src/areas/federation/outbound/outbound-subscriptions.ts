/**
 * The events outbound follows (docs/api.md, Federation), subscribed only with FEDERATION=on: media's
 * events mark the post to be sent once settled (post-sync.ts), in the transaction of the change; an
 * account's erasure queues the Delete of its actor in the erasure's transaction, first of all the
 * subscribers, while its follows and keys are still there. That Delete never holds the erasure up:
 * it runs in a savepoint, and its failure is logged (`federation.actorDeleteFailed`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Transactions } from '../../../platform/db/transactions.ts';
import type { EventBus } from '../../../platform/events/domain-events.ts';
import type { FederationRuntime } from '../federation-runtime.ts';
import type { PostSync } from './post-sync.ts';

export interface OutboundSubscriptionsDeps {
  events: EventBus;
  transactions: Transactions;
  logger: FastifyBaseLogger;
  postSync: PostSync;
  federation: FederationRuntime;
}

export function subscribeOutbound({
  events,
  transactions,
  logger,
  postSync,
  federation,
}: OutboundSubscriptionsDeps): void {
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
    async ({ userId }) => {
      await transactions
        .attempt(() => federation.deleteActor(userId))
        .catch((error: unknown) => {
          logger.error(
            { event: 'federation.actorDeleteFailed', err: error, userId },
            "an erased actor's Delete not sent",
          );
        });
    },
    { first: true },
  );
}
