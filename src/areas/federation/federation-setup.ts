/**
 * The Fedify federation: built once, on first use, and only when FEDERATION=on (the runtime imports
 * this module dynamically, so a service with federation off loads none of Fedify). WebFinger and the
 * NodeInfo discovery document are Fedify's own; this file gives it the actors, their key pairs, the
 * NodeInfo figures, and the inboxes.
 */
import { createFederation, type Federation, type KvStore, type MessageQueue } from '@fedify/fedify';
import {
  Accept,
  Create,
  Delete,
  Endpoints,
  Flag,
  Follow,
  Image,
  Like,
  Note,
  Person,
  Reject,
  Undo,
  Update,
} from '@fedify/fedify/vocab';
import { toHex } from '../../platform/ids/ids.ts';
import type { Stats } from '../../platform/stats/stats.ts';
import { displayNameOf, type UsersService } from '../accounts/public.ts';
import type { UserRow } from '../accounts/read-model.ts';
import type { ActorKeysService } from './actor-keys.service.ts';
import { actorPath, inboxPath, nodeInfoPath, notePath, sharedInboxPath, userIdOfIdentifier } from './actor-paths.ts';
import { onAccept, onReject } from './inbound/accept-handlers.ts';
import { onCreate, onUpdate } from './inbound/create-handlers.ts';
import { onDelete, onUnverifiedDelete } from './inbound/delete-handlers.ts';
import { onFlag } from './inbound/flag-handlers.ts';
import { onFollow, onUndoFollow } from './inbound/follow-handlers.ts';
import type { InboundDeps } from './inbound/inbound-deps.ts';
import { onLike, onUndoLike } from './inbound/like-handlers.ts';
import { setFollowersCollection } from './outbound/followers-collection.ts';
import type { OutboundDeps } from './outbound/outbound-deps.ts';
import { setOutboxCollection } from './outbound/outbox-collection.ts';
import { noteOf } from './outbound/post-note.ts';

export { fetchActorProfile } from './inbound/remote-party.ts';
export { sendActorDelete, sendPostActivity } from './outbound/post-activities.ts';
export { outboundFollowActivities } from './outbound-follow-activities.ts';
export { remotePostActivitiesOf } from './remote-posts/remote-post-activities.ts';

export interface FederationSetupDeps {
  publicUrl: string;
  allowPrivateAddress: boolean;
  softwareVersion: string;
  kv: KvStore;
  queue: MessageQueue;
  users: UsersService;
  actorKeys: ActorKeysService;
  /** NodeInfo's usage: the figures of GET /admin/stats (kept 45 s). */
  stats: Stats;
  /** What the inbox handlers act through (inbound/). */
  inbound: InboundDeps;
  /** A delivery failed (delivery-health.service.ts counts it per domain). */
  onOutboxError(error: Error): void;
  /** What the posts and followers served act through (outbound/). */
  outbound: OutboundDeps;
}

/** A local user as an actor: visible (neither banned nor being deleted) and named. */
async function actorUser(users: UsersService, identifier: string): Promise<(UserRow & { username: string }) | null> {
  const userId = userIdOfIdentifier(identifier);
  if (userId === null) return null;
  const user = await users.findVisible(userId);
  return user?.username == null ? null : { ...user, username: user.username };
}

const profileImage = (publicUrl: string, mediaId: string | null, size: 'thumb' | 'large') =>
  mediaId === null
    ? null
    : new Image({ url: new URL(`/media/${toHex(mediaId)}.webp?size=${size}`, publicUrl), mediaType: 'image/webp' });

export function buildFederation(deps: FederationSetupDeps): Federation<null> {
  const { publicUrl, users, actorKeys } = deps;
  const federation = createFederation<null>({
    kv: deps.kv,
    queue: deps.queue,
    manuallyStartQueue: true,
    origin: publicUrl,
    allowPrivateAddress: deps.allowPrivateAddress,
    // Failing domains are backed off by the queue (delivery-health.service.ts), shown to operators.
    circuitBreaker: false,
    onOutboxError: (error) => deps.onOutboxError(error),
    // An inbox that refuses a delivery for what it is (a domain block's 403, a malformed or oversized
    // activity) refuses it again: not retried, as Mastodon does not. 401 (a key being refreshed), 408
    // and 429 stay retried, with 5xx and network failures.
    permanentFailureStatusCodes: [400, 403, 404, 405, 406, 410, 413, 414, 415, 422],
    userAgent: { software: `travel-media-service/${deps.softwareVersion}`, url: new URL(publicUrl) },
  });

  federation
    .setActorDispatcher(actorPath, async (ctx, identifier) => {
      const user = await actorUser(users, identifier);
      if (user === null) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: user.username,
        name: displayNameOf(user),
        url: new URL(`/@${encodeURIComponent(user.username)}`, publicUrl),
        inbox: ctx.getInboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
        icon: profileImage(publicUrl, user.avatarMediaId, 'thumb'),
        image: profileImage(publicUrl, user.coverMediaId, 'large'),
        // The service has no follow approval: every follow is accepted (docs/api.md, Federation).
        manuallyApprovesFollowers: false,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const user = await actorUser(users, identifier);
      return user === null ? [] : actorKeys.keyPairsOf(user.id);
    })
    .mapHandle(async (_ctx, username) => {
      const user = await users.findByUsername(username);
      return user === null ? null : user.id;
    });

  const { inbound } = deps;
  federation
    .setInboxListeners(inboxPath, sharedInboxPath)
    .on(Follow, (ctx, follow) => onFollow(inbound, ctx, follow))
    .on(Like, (ctx, like) => onLike(inbound, ctx, like))
    .on(Delete, (ctx, activity) => onDelete(inbound, ctx, activity))
    .on(Create, (ctx, create) => onCreate(inbound, ctx, create))
    .on(Update, (ctx, update) => onUpdate(inbound, ctx, update))
    .on(Flag, (ctx, flag) => onFlag(inbound, ctx, flag))
    .on(Accept, (ctx, accept) => onAccept(inbound, ctx, accept))
    .on(Reject, (ctx, reject) => onReject(inbound, ctx, reject))
    .onUnverifiedActivity((ctx, activity, reason) => onUnverifiedDelete(inbound, ctx, activity, reason))
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (object instanceof Follow) await onUndoFollow(inbound, ctx, undo, object);
      else if (object instanceof Like) await onUndoLike(inbound, ctx, undo, object);
    });

  const { outbound } = deps;
  federation.setObjectDispatcher(Note, notePath, async (ctx, { id }) => {
    const post = await outbound.posts.publicPost(id);
    return post === null ? null : noteOf(ctx, post);
  });
  setFollowersCollection(federation, outbound);
  setOutboxCollection(federation, outbound);

  federation.setNodeInfoDispatcher(nodeInfoPath, async () => {
    const { counts } = await deps.stats.snapshot();
    return {
      software: { name: 'travel-media-service', version: deps.softwareVersion },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: {
        users: { total: counts.users?.total ?? 0 },
        localPosts: counts.media?.total ?? 0,
        localComments: counts.comments?.total ?? 0,
      },
    };
  });

  return federation;
}
