/**
 * Like and Undo(Like) of a local post at the inboxes (docs/api.md, Federation): the remote actor's
 * shadow likes the media through the reactions area's own method (counters, `reaction.liked` and its
 * rewards), or unlikes it. A post the actor may not see (hidden, private, a block either way) is not
 * liked: the reactions area answers 404, and the activity is ignored. A banned actor's (or a rejected
 * domain's) Undo(Like) is ignored too: the like stays, hidden with the actor.
 */
import type { InboxContext } from '@fedify/fedify';
import type { Like, Undo } from '@fedify/fedify/vocab';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import type { MediaService } from '../../media/public.ts';
import type { ReactionsService } from '../../reactions/public.ts';
import { mediaIdOfPostUri } from '../actor-paths.ts';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import { remoteActorOf } from './remote-party.ts';
import { reachesLocalUser, type SilencedActorsDeps } from './silenced-actors.ts';

export interface LikeHandlerDeps extends SilencedActorsDeps {
  remoteActors: RemoteActorsService;
  reactions: ReactionsService;
  media: MediaService;
}

/** The reactions area's answer for a post that is not there for the actor, or a like that is not. */
const ignoredNotFound = (error: unknown) => {
  if (!(error instanceof AppError && error.code === 'notFound')) throw error;
};

export async function onLike(deps: LikeHandlerDeps, ctx: InboxContext<null>, like: Like): Promise<void> {
  const mediaId = like.objectId === null ? null : mediaIdOfPostUri(like.objectId, ctx.origin);
  if (mediaId === null) return;
  const actor = await remoteActorOf(ctx, deps.remoteActors, like.actorId);
  if (actor === null) return;
  // A silenced domain's actor likes only the posts of local users who follow it.
  const media = await deps.media.findVisibleMedia(mediaId, actor.userId);
  if (media === null || !(await reachesLocalUser(deps, actor, media.ownerId))) return;
  await deps.reactions.react(actor.userId, mediaId, 'like').catch(ignoredNotFound);
}

export async function onUndoLike(deps: LikeHandlerDeps, ctx: InboxContext<null>, undo: Undo, like: Like) {
  const mediaId = like.objectId === null ? null : mediaIdOfPostUri(like.objectId, ctx.origin);
  if (mediaId === null || undo.actorId === null || like.actorId?.href !== undo.actorId.href) return;
  const actor = await deps.remoteActors.findActing(undo.actorId.href);
  if (actor === null) return;
  await deps.reactions.unreact(actor.userId, mediaId).catch(ignoredNotFound);
}
