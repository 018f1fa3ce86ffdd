/**
 * A local user's followers collection (`/ap/users/{userId}/followers`, docs/api.md, Federation):
 * `totalItems` is the profile's followers count (local and remote) for anyone; its page lists the
 * remote followers' actor URIs, the ones Fedify fans a post's activities out to (and that Mastodon's
 * followers synchronisation reads, filtered to its own server). Local followers read their posts here,
 * not through an inbox.
 */
import type { Federation } from '@fedify/fedify';
import type { UsersService } from '../../accounts/public.ts';
import type { FollowsService } from '../../follows/public.ts';
import { followersPath, userIdOfIdentifier } from '../actor-paths.ts';
import { recipientOf } from '../inbound/remote-party.ts';
import type { OutboundPostsRepository } from './outbound-posts.repository.ts';

export interface FollowersCollectionDeps {
  users: UsersService;
  follows: FollowsService;
  outboundPosts: OutboundPostsRepository;
}

/** The one page of the collection. */
const remoteFollowersCursor = 'remote';

export function setFollowersCollection(federation: Federation<null>, deps: FollowersCollectionDeps): void {
  const visibleUserId = async (identifier: string) => {
    const userId = userIdOfIdentifier(identifier);
    return userId !== null && (await deps.users.findVisible(userId)) !== null ? userId : null;
  };
  federation
    .setFollowersDispatcher(followersPath, async (_ctx, identifier, cursor) => {
      // No cursor: Fedify reading every follower at once, to send to them.
      if (cursor !== null && cursor !== remoteFollowersCursor) return null;
      const userId = await visibleUserId(identifier);
      if (userId === null) return null;
      return { items: (await deps.outboundPosts.remoteFollowersOf(userId)).map(recipientOf) };
    })
    .setCounter(async (_ctx, identifier) => {
      const userId = await visibleUserId(identifier);
      return userId === null ? null : (await deps.follows.counts(userId)).followers;
    })
    // No page for an unknown or hidden user: Fedify then asks the dispatcher, whose null is a 404.
    .setFirstCursor(async (_ctx, identifier) =>
      (await visibleUserId(identifier)) === null ? null : remoteFollowersCursor,
    );
}
