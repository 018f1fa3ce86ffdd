/**
 * The Delete of a remote post by its author (docs/api.md, Federation): the note's URI, or a
 * Tombstone of it, removes the kept post with the local likes and replies of it. Another actor's
 * Delete of it changes nothing, nor does a banned author's (its posts are already left out).
 */
import type { InboxContext } from '@fedify/fedify';
import type { Delete } from '@fedify/fedify/vocab';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import type { RemotePostsService } from '../remote-posts/remote-posts.service.ts';

export interface RemotePostDeleteDeps {
  remoteActors: RemoteActorsService;
  remotePosts: RemotePostsService;
}

export async function deleteRemotePost(deps: RemotePostDeleteDeps, ctx: InboxContext<null>, activity: Delete) {
  const { actorId, objectId } = activity;
  if (actorId === null || objectId === null || actorId.origin === ctx.origin) return;
  const author = await deps.remoteActors.findActing(actorId.href);
  if (author !== null) await deps.remotePosts.remove(author.userId, objectId.href);
}
