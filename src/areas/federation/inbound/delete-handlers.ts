/**
 * Delete at the inboxes (docs/api.md, Federation). An actor's Delete of itself erases its shadow user
 * (remote-actors.service.ts: every area drops what it did here and repairs its counters). A Delete of
 * a Note that became a comment here deletes the comment (remote-comments-delete.ts); of a note kept as a
 * remote post removes it (remote-post-deletes.ts); of anything else, nothing.
 *
 * Mastodon signs an account's Delete with the key of the account it just deleted, whose document now
 * answers 410 Gone: the signature cannot be checked. That 410, from the actor's own URL, is the proof
 * the actor is gone, so such a Delete is acted upon at once (202) although unverified; any other
 * unverified activity keeps Fedify's 401.
 *
 * A banned actor (or one of a rejected domain) changes nothing with a Delete, of itself or of what it
 * wrote: answered 202 as every activity the inbox takes, and ignored, as its Follow, Like or Create
 * are; its shadow and the ban stay for the operators (erasing it would also let it come back unbanned).
 */
import type { Context, InboxContext, UnverifiedActivityReason } from '@fedify/fedify';
import { type Activity, Delete } from '@fedify/fedify/vocab';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import type { RemoteCommentHandlerDeps } from './create-handlers.ts';
import { deleteRemoteComment } from './remote-comments-delete.ts';
import { deleteRemotePost, type RemotePostDeleteDeps } from './remote-post-deletes.ts';

export interface DeleteHandlerDeps extends RemotePostDeleteDeps {
  remoteActors: RemoteActorsService;
}

/** The actor whose Delete of itself this is, or null for the Delete of anything else. */
function selfDeletedActor(ctx: Context<null>, activity: Delete): URL | null {
  const actorId = activity.actorId;
  if (actorId === null || actorId.origin === ctx.origin || activity.objectId?.href !== actorId.href) return null;
  return actorId;
}

export async function onDelete(
  deps: DeleteHandlerDeps & RemoteCommentHandlerDeps,
  ctx: InboxContext<null>,
  activity: Delete,
): Promise<void> {
  const actorId = selfDeletedActor(ctx, activity);
  if (actorId !== null) await eraseActing(deps, actorId);
  else {
    await deleteRemoteComment(deps, ctx, activity);
    await deleteRemotePost(deps, ctx, activity);
  }
}

export async function onUnverifiedDelete(
  deps: DeleteHandlerDeps,
  ctx: Context<null>,
  activity: Activity,
  reason: UnverifiedActivityReason,
): Promise<Response | undefined> {
  if (!(activity instanceof Delete) || reason.type !== 'keyFetchError') return undefined;
  if (!('status' in reason.result) || reason.result.status !== 410) return undefined;
  const actorId = selfDeletedActor(ctx, activity);
  const keyDocument = new URL(reason.keyId);
  keyDocument.hash = '';
  if (actorId === null || keyDocument.href !== actorId.href) return undefined;
  await eraseActing(deps, actorId);
  return new Response(null, { status: 202 });
}

/** The actor's Delete of itself: its shadow erased, unless banned (the ban stays) or on a rejected domain. */
async function eraseActing(deps: DeleteHandlerDeps, actorId: URL): Promise<void> {
  if ((await deps.remoteActors.findActing(actorId.href)) !== null) await deps.remoteActors.erase(actorId.href);
}
