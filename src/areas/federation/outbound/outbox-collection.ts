/**
 * A local user's outbox (`/ap/users/{userId}/outbox`, docs/api.md, Federation): their public posts,
 * newest first, each as the `Create` of its Note, 20 a page, paged by the keyset of their public
 * posts list (media's `listPublicPosts`: a post a moderator flagged sensitive is left out, as from
 * every public list). Servers read it to show an account's recent posts.
 */
import type { Federation } from '@fedify/fedify';
import type { Create } from '@fedify/fedify/vocab';
import { decodeCursor } from '../../../platform/db/keyset-cursor.ts';
import { firstPage, type PageRequest } from '../../../platform/db/page-request.ts';
import type { UsersService } from '../../accounts/public.ts';
import type { MediaService } from '../../media/public.ts';
import { outboxPath, userIdOfIdentifier } from '../actor-paths.ts';
import type { FederatedPosts } from './federated-posts.ts';
import { createOf } from './post-activities.ts';

export interface OutboxCollectionDeps {
  users: UsersService;
  media: MediaService;
  posts: FederatedPosts;
}

const pageSize = 20;
/** The first page's cursor (the others are the list's keyset cursors). */
const firstCursor = 'first';

export function setOutboxCollection(federation: Federation<null>, deps: OutboxCollectionDeps): void {
  const keyset = deps.media.publicPostsKeyset;
  const pageAt = (cursor: string): PageRequest | null => {
    if (cursor === firstCursor) return firstPage(pageSize, keyset.name);
    const position = decodeCursor(cursor, keyset.name, keyset.shape);
    return position === null ? null : { direction: 'after', position, limit: pageSize, list: keyset.name };
  };
  const visibleUserId = async (identifier: string) => {
    const userId = userIdOfIdentifier(identifier);
    const user = userId === null ? null : await deps.users.findVisible(userId);
    return user?.username == null || user.remoteHandle !== null ? null : user.id;
  };
  federation
    .setOutboxDispatcher(outboxPath, async (ctx, identifier, cursor) => {
      const userId = await visibleUserId(identifier);
      const page = cursor === null ? null : pageAt(cursor);
      if (userId === null || page === null) return null;
      const listed = await deps.media.listPublicPosts(userId, page, null);
      const items: Create[] = [];
      for (const lead of listed.items) {
        const post = await deps.posts.publicPost(lead.id);
        if (post !== null) items.push(createOf(ctx, post));
      }
      return { items, nextCursor: listed.nextCursor };
    })
    .setFirstCursor(async (_ctx, identifier) => ((await visibleUserId(identifier)) === null ? null : firstCursor));
}
