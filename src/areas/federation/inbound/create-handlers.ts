/**
 * Create(Note) and Update(Note) at the inboxes (docs/api.md, Federation). A Note replying to a local
 * post (`{PUBLIC_URL}/ap/posts/{mediaId}`), or to a comment written from another server, becomes a
 * comment of its author's shadow (remote-comments.service.ts: the comments area's own method, with
 * its rules and effects); its Update edits that comment. Only a public or unlisted Note is taken: a
 * comment is public here, and a followers-only or direct reply must not become one. Any other Note
 * is a remote post's (remote-post-handlers.ts: kept when a local user follows its author).
 */
import type { Context, InboxContext } from '@fedify/fedify';
import { type Create, Note, type Update } from '@fedify/fedify/vocab';
import type { MediaService } from '../../media/public.ts';
import { mediaIdOfPostUri } from '../actor-paths.ts';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import type { RemoteCommentsService, ReplyTarget } from '../remote-comments.service.ts';
import { commentTextOf } from './remote-comments-note.ts';
import { isPublicNote } from './remote-note.ts';
import { remoteActorOf } from './remote-party.ts';
import { onRemoteNote, onRemoteNoteUpdate, type RemotePostHandlerDeps } from './remote-post-handlers.ts';
import { reachesLocalUser, type SilencedActorsDeps } from './silenced-actors.ts';

export interface RemoteCommentHandlerDeps extends SilencedActorsDeps {
  remoteActors: RemoteActorsService;
  remoteComments: RemoteCommentsService;
  media: MediaService;
}

/** Where the Note replies to here: a local post, or a comment written from another server; else null. */
async function replyTargetOf(deps: RemoteCommentHandlerDeps, ctx: Context<null>, note: Note) {
  const replied = note.replyTargetId;
  if (replied === null) return null;
  const mediaId = mediaIdOfPostUri(replied, ctx.origin);
  if (mediaId !== null) return { mediaId } satisfies ReplyTarget;
  return deps.remoteComments.replyTargetOf(replied.href);
}

/** A Note its activity's actor may speak for: its id on the actor's server, attributed to the actor. */
function ownNote(actorId: URL | null, note: Note): actorId is URL {
  if (actorId === null || note.id === null || note.id.origin !== actorId.origin) return false;
  return note.attributionIds.length === 0 || note.attributionIds.every((id) => id.href === actorId.href);
}

export async function onCreate(
  deps: RemoteCommentHandlerDeps & RemotePostHandlerDeps,
  ctx: InboxContext<null>,
  create: Create,
) {
  const note = await create.getObject(ctx);
  if (!(note instanceof Note)) return;
  const target = await replyTargetOf(deps, ctx, note);
  if (target === null) {
    await onRemoteNote(deps, ctx, create, note);
    return;
  }
  if (!ownNote(create.actorId, note) || note.id === null || !isPublicNote(note)) return;
  const actor = await remoteActorOf(ctx, deps.remoteActors, create.actorId);
  const body = actor === null ? null : commentTextOf(note, ctx.origin);
  if (actor === null || body === null) return;
  // A silenced domain's actor replies only to the posts of local users who follow it.
  const post = await deps.media.findVisibleMedia(target.mediaId, actor.userId);
  if (post === null || !(await reachesLocalUser(deps, actor, post.ownerId))) return;
  await deps.remoteComments.receive(actor.userId, note.id.href, target, body);
}

export async function onUpdate(
  deps: RemoteCommentHandlerDeps & RemotePostHandlerDeps,
  ctx: InboxContext<null>,
  update: Update,
) {
  const note = await update.getObject(ctx);
  if (!(note instanceof Note) || note.id === null) return;
  if ((await deps.remoteComments.commentIdOf(note.id.href)) === null) {
    await onRemoteNoteUpdate(deps, ctx, update, note);
    return;
  }
  const actorId = update.actorId;
  if (!ownNote(actorId, note)) return;
  // As for a Create: a banned actor's (or a rejected domain's) Update changes nothing.
  const actor = await remoteActorOf(ctx, deps.remoteActors, actorId);
  const body = actor === null ? null : commentTextOf(note, ctx.origin);
  if (actor === null || body === null) return;
  await deps.remoteComments.edit(actor.userId, note.id.href, body);
}
