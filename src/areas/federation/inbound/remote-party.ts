/**
 * The two parties of an incoming activity: its remote actor (fetched and kept as a shadow user by
 * remote-actors.service.ts) and the local user it is addressed to (an actor URL of this server).
 */
import type { Context } from '@fedify/fedify';
import { isActor } from '@fedify/fedify/vocab';
import { userIdOfIdentifier } from '../actor-paths.ts';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import type { RemoteActorRow } from '../tables.ts';
import { avatarUrlOf, profileOf } from './actor-profile.ts';

/** The actor at `uri` through the context's document loader (private addresses only when allowed). */
export async function fetchActorProfile(ctx: Context<null>, uri: URL) {
  const object = await ctx.lookupObject(uri);
  if (!isActor(object)) return null;
  const profile = profileOf(object);
  return profile === null ? null : { ...profile, avatarUrl: await avatarUrlOf(object) };
}

/**
 * The activity's actor, known or fetched; null when it cannot be had, is on a rejected domain or is
 * banned (the activity is then ignored).
 */
export function remoteActorOf(
  ctx: Context<null>,
  remoteActors: RemoteActorsService,
  actorId: URL | null,
): Promise<RemoteActorRow | null> {
  if (actorId === null || actorId.origin === ctx.origin) return Promise.resolve(null);
  return remoteActors.resolveActing(actorId.href, () => fetchActorProfile(ctx, actorId));
}

/** The local user an actor URL of this server names, or null. */
export function localUserOf(ctx: Context<null>, uri: URL | null): string | null {
  const parsed = uri === null ? null : ctx.parseUri(uri);
  return parsed?.type === 'actor' ? userIdOfIdentifier(parsed.identifier) : null;
}

/** Where an activity to the remote actor goes (its own inbox and its server's shared inbox). */
export const recipientOf = (actor: RemoteActorRow) => ({
  id: new URL(actor.actorUri),
  inboxId: new URL(actor.inbox),
  endpoints: actor.sharedInbox === null ? null : { sharedInbox: new URL(actor.sharedInbox) },
});
