/** What the federation's outbound parts (the Note, the followers collection, the sending) act through. */
import type { FederatedPosts } from './federated-posts.ts';
import type { FollowersCollectionDeps } from './followers-collection.ts';
import type { OutboxCollectionDeps } from './outbox-collection.ts';

export interface OutboundDeps extends FollowersCollectionDeps, OutboxCollectionDeps {
  posts: FederatedPosts;
}
