/**
 * Accept and Reject of a local user's Follow at the inboxes (docs/api.md, Federation): the remote
 * server's answer to the Follow outbound-follows.service.ts sent. It is matched by our Follow's id
 * (the `object`, embedded as Mastodon does or as a bare id), else by the local actor of the Follow it
 * embeds (servers that give the Follow back without its id); only the actor followed may answer.
 * Accept stores the follow, Reject drops the request or ends the follow. Anything else is ignored.
 */
import type { InboxContext } from '@fedify/fedify';
import { type Accept, Follow, type Reject } from '@fedify/fedify/vocab';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import type { FollowAnswer, OutboundFollowsService } from '../outbound-follows.service.ts';
import { localUserOf } from './remote-party.ts';

export interface AcceptHandlerDeps {
  outboundFollows: OutboundFollowsService;
}

const notFetched = (): Promise<never> => Promise.reject(new Error('an answered Follow is never fetched'));

/** Which of our Follows the answer names; null when it names none (not a Follow, or not ours). */
async function answerOf(ctx: InboxContext<null>, answer: Accept | Reject): Promise<FollowAnswer | null> {
  const actorId = answer.actorId;
  if (actorId === null || actorId.origin === ctx.origin) return null;
  const objectId = answer.objectId;
  // An embedded Follow is read as given, although its id is ours (it is checked against what we sent),
  // and a bare id is never fetched (our Follow has no document of its own).
  const object = await answer.getObject({
    crossOrigin: 'trust',
    documentLoader: notFetched,
    contextLoader: ctx.contextLoader,
    suppressError: true,
  });
  const follow = object instanceof Follow ? object : null;
  if (object !== null && follow === null) return null;
  if (follow !== null && follow.objectId !== null && follow.objectId.href !== actorId.href) return null;
  const followUri = objectId?.origin === ctx.origin ? objectId.href : null;
  const localUserId = follow === null ? null : localUserOf(ctx, follow.actorId);
  if (followUri === null && localUserId === null) return null;
  return { actorUri: actorId.href, followUri, localUserId };
}

/** The local user is gone, hidden, or blocks the actor now: the answer changes nothing. */
const ignoredNotFound = (error: unknown) => {
  if (!(error instanceof AppError && error.code === 'notFound')) throw error;
  return false;
};

export async function onAccept(deps: AcceptHandlerDeps, ctx: InboxContext<null>, accept: Accept): Promise<void> {
  const answer = await answerOf(ctx, accept);
  if (answer !== null) await deps.outboundFollows.accepted(answer).catch(ignoredNotFound);
}

export async function onReject(deps: AcceptHandlerDeps, ctx: InboxContext<null>, reject: Reject): Promise<void> {
  const answer = await answerOf(ctx, reject);
  if (answer !== null) await deps.outboundFollows.rejected(answer);
}
