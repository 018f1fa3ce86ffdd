/**
 * Delete of a Note (or its Tombstone) that became a comment here (docs/api.md, Federation): the
 * comment is deleted as its author deletes it (a placeholder while replies hang under it). Only the
 * comment's author may: another actor's Delete of the URI changes nothing, nor does a banned actor's (its comment stays hidden
 * for the moderators, as a banned local user's).
 */
import type { InboxContext } from '@fedify/fedify';
import type { Delete } from '@fedify/fedify/vocab';
import type { RemoteCommentHandlerDeps } from './create-handlers.ts';

export async function deleteRemoteComment(
  deps: RemoteCommentHandlerDeps,
  _ctx: InboxContext<null>,
  activity: Delete,
): Promise<void> {
  const { actorId, objectId } = activity;
  if (actorId === null || objectId === null || objectId.origin !== actorId.origin) return;
  const actor = await deps.remoteActors.findActing(actorId.href);
  if (actor !== null) await deps.remoteComments.remove(actor.userId, objectId.href);
}
