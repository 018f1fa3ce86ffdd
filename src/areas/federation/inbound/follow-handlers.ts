/**
 * Follow and Undo(Follow) at the inboxes (docs/api.md, Federation): the remote actor's shadow user
 * follows the local user through the follows area's own method (counters, `follow.created`, the
 * notification with the actor's handle), and the actor gets an Accept through the queue; a local
 * user who blocks the actor (or its domain), or whom a silenced domain's actor may not reach
 * (silenced-actors.ts), answers Reject and nothing is stored. Undo(Follow) unfollows, unless the
 * actor is banned or its domain rejected (`findActing`: ignored).
 */
import type { InboxContext } from '@fedify/fedify';
import { Accept, type Follow, Reject, type Undo } from '@fedify/fedify/vocab';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import type { UsersService } from '../../accounts/public.ts';
import type { FollowsService } from '../../follows/public.ts';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import { localUserOf, recipientOf, remoteActorOf } from './remote-party.ts';
import { reachesLocalUser, type SilencedActorsDeps } from './silenced-actors.ts';

export interface FollowHandlerDeps extends SilencedActorsDeps {
  remoteActors: RemoteActorsService;
  follows: FollowsService;
  users: UsersService;
}

/** Whether the error is the follows area's answer for a follow that already exists. */
const alreadyFollowing = (error: unknown) => error instanceof AppError && error.code === 'alreadyFollowing';

export async function onFollow(deps: FollowHandlerDeps, ctx: InboxContext<null>, follow: Follow): Promise<void> {
  const localUserId = localUserOf(ctx, follow.objectId);
  if (localUserId === null || (await deps.users.findVisible(localUserId)) === null) return;
  const actor = await remoteActorOf(ctx, deps.remoteActors, follow.actorId);
  if (actor === null) return;
  const sender = { identifier: localUserId };
  const answer = {
    id: new URL(`#answers/${crypto.randomUUID()}`, ctx.getActorUri(localUserId)),
    actor: ctx.getActorUri(localUserId),
    object: follow,
  };
  if (
    (await deps.users.blockedEitherWay(localUserId, actor.userId)) ||
    !(await reachesLocalUser(deps, actor, localUserId))
  ) {
    await ctx.sendActivity(sender, recipientOf(actor), new Reject(answer));
    return;
  }
  try {
    await deps.follows.follow(actor.userId, localUserId);
  } catch (error) {
    // A repeated Follow (a remote server retrying, or following again after losing our Accept) is accepted again.
    if (!alreadyFollowing(error)) throw error;
  }
  await ctx.sendActivity(sender, recipientOf(actor), new Accept(answer));
}

export async function onUndoFollow(deps: FollowHandlerDeps, ctx: InboxContext<null>, undo: Undo, follow: Follow) {
  const localUserId = localUserOf(ctx, follow.objectId);
  if (localUserId === null || follow.actorId?.href !== undo.actorId?.href || undo.actorId === null) return;
  const actor = await deps.remoteActors.findActing(undo.actorId.href);
  if (actor === null) return;
  await deps.follows.unfollow(actor.userId, localUserId).catch((error: unknown) => {
    // The local user is gone or blocks the actor: there is no follow left to undo.
    if (!(error instanceof AppError && error.code === 'notFound')) throw error;
  });
}
