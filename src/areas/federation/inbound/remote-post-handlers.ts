/**
 * Remote posts at the inboxes (docs/api.md, Federation): a public `Create(Note)` that replies to
 * nothing, from a known remote actor that a local user follows, is kept as a remote post
 * (remote-posts.service.ts); `Update(Note)` updates the kept post. A note must be the actor's own
 * (attributed to it, its id on the actor's server). Anything else is left alone (the comments of
 * local posts are fed-in's `onCreate`, which hands other notes here).
 */
import type { InboxContext } from '@fedify/fedify';
import type { Create, Note, Update } from '@fedify/fedify/vocab';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import type { RemotePostsService } from '../remote-posts/remote-posts.service.ts';
import type { RemoteActorRow } from '../tables.ts';
import { isPublicNote, remoteNoteOf } from './remote-note.ts';
import { remoteActorOf } from './remote-party.ts';

export interface RemotePostHandlerDeps {
  remoteActors: RemoteActorsService;
  remotePosts: RemotePostsService;
}

/**
 * The note's author, when the activity's actor wrote it and is known here (a followed actor always
 * is: following it made its shadow); refreshed when its copy is old. Null otherwise.
 */
async function authorOf(
  deps: RemotePostHandlerDeps,
  ctx: InboxContext<null>,
  activity: Create | Update,
  note: Note,
): Promise<RemoteActorRow | null> {
  const actorId = activity.actorId;
  if (actorId === null || actorId.origin === ctx.origin) return null;
  if (note.id?.origin !== actorId.origin || note.attributionId?.href !== actorId.href) return null;
  if ((await deps.remoteActors.find(actorId.href)) === null) return null;
  return remoteActorOf(ctx, deps.remoteActors, actorId);
}

export async function onRemoteNote(deps: RemotePostHandlerDeps, ctx: InboxContext<null>, create: Create, note: Note) {
  if (note.replyTargetId !== null || !isPublicNote(note)) return;
  const author = await authorOf(deps, ctx, create, note);
  const kept = author === null ? null : await remoteNoteOf(note);
  if (author !== null && kept !== null) await deps.remotePosts.receive(author.userId, kept);
}

/** An edit of a kept post; a note no longer public is removed. */
export async function onRemoteNoteUpdate(
  deps: RemotePostHandlerDeps,
  ctx: InboxContext<null>,
  update: Update,
  note: Note,
) {
  const author = await authorOf(deps, ctx, update, note);
  const kept = author === null ? null : await remoteNoteOf(note);
  if (author === null || kept === null) return;
  if (isPublicNote(note)) await deps.remotePosts.update(author.userId, kept);
  else await deps.remotePosts.remove(author.userId, kept.uri);
}
