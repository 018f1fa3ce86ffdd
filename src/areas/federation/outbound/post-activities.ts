/**
 * The activities federation sends of local posts and accounts (docs/api.md, Federation), through
 * Fedify's queue to the shared inboxes of the owner's remote followers: Create and Update carry the
 * post's Note, Delete its Tombstone; an account's erasure sends Delete of the actor. Activities of one
 * post share an ordering key (its Note's URI), so they arrive in the order they were sent.
 */
import type { Context, SenderKeyPair } from '@fedify/fedify';
import { Create, Delete, PUBLIC_COLLECTION, Update } from '@fedify/fedify/vocab';
import { recipientOf } from '../inbound/remote-party.ts';
import type { RemoteActorRow } from '../tables.ts';
import type { FederatedPost } from './federated-posts.ts';
import { instantOf, noteOf, tombstoneOf } from './post-note.ts';
import type { PostActivity } from './post-sync.ts';

/** The post's Create, as sent and as the outbox lists it (one per post: its id is the Note's, `#create`). */
export function createOf(ctx: Context<null>, post: FederatedPost): Create {
  const note = noteOf(ctx, post);
  const actor = ctx.getActorUri(post.ownerId);
  return new Create({
    id: new URL('#create', note.id ?? actor),
    actor,
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.ownerId),
    object: note,
    published: instantOf(post.published),
  });
}

/** The activity of one change of a post, signed by `ownerId`; Update and Delete ids are unique (`now` and a UUID). */
function activityOf(ctx: Context<null>, activity: PostActivity, ownerId: string, now: Date): Create | Update | Delete {
  if (activity.kind === 'create') return createOf(ctx, activity.post);
  const actor = ctx.getActorUri(ownerId);
  const addressed = { actor, to: PUBLIC_COLLECTION, cc: ctx.getFollowersUri(ownerId) };
  const stamp = `${now.getTime().toString(36)}-${crypto.randomUUID()}`;
  if (activity.kind === 'delete') {
    const tombstone = tombstoneOf(ctx, activity.mediaId, now);
    return new Delete({ ...addressed, id: new URL(`#delete/${stamp}`, tombstone.id ?? actor), object: tombstone });
  }
  const note = noteOf(ctx, activity.post, { edited: true });
  const id = new URL(`#update/${stamp}`, note.id ?? actor);
  return new Update({ ...addressed, id, object: note, updated: instantOf(activity.post.updated) });
}

/** The post's activity to the owner's followers' shared inboxes; false when there was nobody to send it to. */
export async function sendPostActivity(
  ctx: Context<null>,
  activity: PostActivity,
  now: Date,
  hasRemoteFollower: (userId: string) => Promise<boolean>,
): Promise<boolean> {
  const ownerId = activity.kind === 'delete' ? activity.ownerId : activity.post.ownerId;
  if (!(await hasRemoteFollower(ownerId))) return false;
  // An owner who is no longer visible (banned, leaving) has no actor and no keys: nothing is sent.
  if ((await ctx.getActorKeyPairs(ownerId)).length === 0) return false;
  const sent = activityOf(ctx, activity, ownerId, now);
  await ctx.sendActivity({ identifier: ownerId }, 'followers', sent, {
    preferSharedInbox: true,
    orderingKey: (sent.objectId ?? ctx.getActorUri(ownerId)).href,
  });
  return true;
}

/**
 * An erased account's Delete of its actor, to its remote followers (read before follows erased them).
 * Signed with the keys given: the account is already invisible, so Fedify's key dispatcher has none.
 */
export async function sendActorDelete(
  ctx: Context<null>,
  userId: string,
  keys: CryptoKeyPair[],
  followers: RemoteActorRow[],
): Promise<void> {
  const actor = ctx.getActorUri(userId);
  // The key ids Fedify gives the key pairs of the actor's dispatcher (the RSA key first: #main-key).
  const senders: SenderKeyPair[] = keys.map((pair, index) => ({
    keyId: new URL(index === 0 ? '#main-key' : `#key-${index + 1}`, actor),
    privateKey: pair.privateKey,
  }));
  const activity = new Delete({
    id: new URL('#delete', actor),
    actor,
    object: actor,
    to: PUBLIC_COLLECTION,
  });
  await ctx.sendActivity(senders, followers.map(recipientOf), activity, { preferSharedInbox: true });
}
