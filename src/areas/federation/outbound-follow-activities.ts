/**
 * What a local user's follow of a remote account says to other servers (docs/api.md, Federation):
 * the remote actor found by its handle (WebFinger) or URL and fetched, then `Follow` and
 * `Undo(Follow)` sent through the queue, signed by the local user's key. Loaded with Fedify
 * (federation-setup.ts re-exports it), never at start-up.
 */
import type { Context } from '@fedify/fedify';
import { Follow, Undo } from '@fedify/fedify/vocab';
import { fetchActorProfile, recipientOf } from './inbound/remote-party.ts';
import type { RemoteActorProfile } from './remote-actors.service.ts';
import type { RemoteHandle } from './remote-handles.ts';
import type { RemoteActorRow } from './tables.ts';

/** How long a remote server has to answer a WebFinger lookup. */
const lookupTimeoutMs = 10_000;

const activityJson = /^application\/(activity\+json|ld\+json)/;

/** A WebFinger answer as received: nothing in it is trusted to have its expected shape. */
interface Descriptor {
  links?: unknown;
}

type DescriptorLink = { rel?: unknown; type?: unknown; href?: unknown } | null;

/**
 * The JRD of `acct:username@host`: over https (Fedify's lookup, which refuses private addresses
 * unless FEDERATION_ALLOW_PRIVATE_ADDRESS is on); with that setting on, then over plain http, as the
 * instances of closed networks and tests serve it.
 */
async function webFinger(ctx: Context<null>, handle: { username: string; host: string }, allowPrivate: boolean) {
  const resource = `acct:${handle.username}@${handle.host}`;
  // A server answering garbage (or timing out) is an account not found, never a 500.
  const found = (await ctx
    .lookupWebFinger(resource, { signal: AbortSignal.timeout(lookupTimeoutMs) })
    .catch(() => null)) as Descriptor | null;
  if (found !== null || !allowPrivate) return found;
  const url = new URL(`http://${handle.host}/.well-known/webfinger`);
  url.searchParams.set('resource', resource);
  const response = await fetch(url, {
    headers: { accept: 'application/jrd+json' },
    redirect: 'error',
    signal: AbortSignal.timeout(lookupTimeoutMs),
  }).catch(() => null);
  if (response === null || !response.ok) return null;
  return (await response.json().catch(() => null)) as Descriptor | null;
}

/** The actor's URL a WebFinger descriptor gives (`rel: self` of an ActivityPub type). */
function actorUrlOf(descriptor: Descriptor | null): URL | null {
  const links = descriptor?.links;
  if (!Array.isArray(links)) return null;
  const link = (links as DescriptorLink[]).find(
    (l) => l?.rel === 'self' && typeof l.type === 'string' && activityJson.test(l.type),
  );
  if (typeof link?.href !== 'string') return null;
  try {
    return new URL(link.href);
  } catch {
    return null;
  }
}

export const outboundFollowActivities = {
  /**
   * The remote actor a handle or URL names, fetched; null when there is none (or it cannot be had), or
   * when WebFinger names an actor on a domain operators reject (never fetched).
   */
  async lookup(
    ctx: Context<null>,
    handle: RemoteHandle,
    allowPrivate: boolean,
    domains: { rejectsHost(host: string): Promise<boolean> },
  ): Promise<RemoteActorProfile | null> {
    const url = handle.kind === 'url' ? handle.url : actorUrlOf(await webFinger(ctx, handle, allowPrivate));
    if (url === null || url.origin === ctx.origin || (await domains.rejectsHost(url.host))) return null;
    return fetchActorProfile(ctx, url).catch(() => null);
  },

  /** `Follow` of the remote actor by the local user, queued for delivery to its inbox. */
  async sendFollow(ctx: Context<null>, userId: string, actor: RemoteActorRow, followUri: string): Promise<void> {
    await ctx.sendActivity({ identifier: userId }, recipientOf(actor), followOf(ctx, userId, actor, followUri));
  },

  /** `Undo` of that Follow (the same id), queued the same way. */
  async sendUndoFollow(ctx: Context<null>, userId: string, actor: RemoteActorRow, followUri: string): Promise<void> {
    const follow = followOf(ctx, userId, actor, followUri);
    const undo = new Undo({ id: new URL(`${followUri}/undo`), actor: ctx.getActorUri(userId), object: follow });
    await ctx.sendActivity({ identifier: userId }, recipientOf(actor), undo);
  },
};

export type OutboundFollowActivities = typeof outboundFollowActivities;

const followOf = (ctx: Context<null>, userId: string, actor: RemoteActorRow, followUri: string) =>
  new Follow({ id: new URL(followUri), actor: ctx.getActorUri(userId), object: new URL(actor.actorUri) });
