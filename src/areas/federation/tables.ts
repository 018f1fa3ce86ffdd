/** The federation area's tables (migration 1850). */
import { bigint, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** Fedify's key-value store: the key is the JSON array of its parts. */
export const federationKv = pgTable('federation_kv', {
  key: text('key').primaryKey(),
  /** SQL NULL is JSON null. */
  value: jsonb('value').$type<unknown>(),
  expiresAt: timestamptz('expires_at'),
});

/** Fedify's message queue, drained by the job federation-queue. */
export const federationQueue = pgTable('federation_queue', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  sealedMessage: text('sealed_message').notNull(),
  orderingKey: text('ordering_key'),
  runAfter: timestamptz('run_after').notNull(),
  claimedUntil: timestamptz('claimed_until'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamptz('created_at').notNull(),
});

export type ActorKeyAlgorithm = 'RSASSA-PKCS1-v1_5' | 'Ed25519';

/** A local actor's key pairs; the private half sealed (platform/secrets/sealed-box.ts). */
export const federationActorKeys = pgTable(
  'federation_actor_keys',
  {
    userId: uuid('user_id').notNull(),
    algorithm: text('algorithm').$type<ActorKeyAlgorithm>().notNull(),
    publicJwk: jsonb('public_jwk').$type<JsonWebKey>().notNull(),
    sealedPrivateJwk: text('sealed_private_jwk').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.algorithm] })],
);
export type ActorKeyRow = typeof federationActorKeys.$inferSelect;

/** The remote actors federation knows, each with its local shadow user (migration 1870). */
export const federationRemoteActors = pgTable('federation_remote_actors', {
  actorUri: text('actor_uri').primaryKey(),
  userId: uuid('user_id').notNull(),
  inbox: text('inbox').notNull(),
  sharedInbox: text('shared_inbox'),
  /** The actor's summary as plain text. */
  summary: text('summary'),
  /** The actor's avatar (`icon`), an http(s) URL (migration 1895; never fetched here). */
  avatarUrl: text('avatar_url'),
  fetchedAt: timestamptz('fetched_at').notNull(),
});
export type RemoteActorRow = typeof federationRemoteActors.$inferSelect;

/** The comments written from other servers: the URI of the Note each came from (migration 1885). */
export const federationRemoteComments = pgTable('federation_remote_comments', {
  commentId: uuid('comment_id').primaryKey(),
  objectUri: text('object_uri').notNull().unique(),
  /** The comment's post (a reply to the comment goes on it). */
  mediaId: uuid('media_id').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});
export type RemoteCommentRow = typeof federationRemoteComments.$inferSelect;
export type OutboundFollowState = 'pending' | 'accepted';

/** A local user's Follow of a remote actor's shadow, and whether it was accepted (migration 1890). */
export const federationOutboundFollows = pgTable(
  'federation_outbound_follows',
  {
    userId: uuid('user_id').notNull(),
    remoteUserId: uuid('remote_user_id').notNull(),
    /** The id of the Follow sent, which the remote server's Accept or Reject names. */
    followUri: text('follow_uri').notNull(),
    state: text('state').$type<OutboundFollowState>().notNull(),
    requestedAt: timestamptz('requested_at').notNull(),
    acceptedAt: timestamptz('accepted_at'),
    /** How many times the Follow was sent (migration 1960: retried with backoff while pending). */
    attempts: integer('attempts').notNull().default(1),
    /** When a pending request is due: sent again, or expired after the last send; null once accepted. */
    nextAttemptAt: timestamptz('next_attempt_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.remoteUserId] })],
);
export type OutboundFollowRow = typeof federationOutboundFollows.$inferSelect;
export type DomainBlockSeverity = 'reject' | 'silence';

/** An operator's block of a domain and its subdomains (migration 1900). */
export const federationDomainBlocks = pgTable('federation_domain_blocks', {
  domain: text('domain').primaryKey(),
  severity: text('severity').$type<DomainBlockSeverity>().notNull(),
  publicReason: text('public_reason'),
  privateReason: text('private_reason'),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
export type DomainBlockRow = typeof federationDomainBlocks.$inferSelect;

/** The outgoing deliveries' health per domain (migration 1900; delivery-health.service.ts). */
export const federationDomainHealth = pgTable('federation_domain_health', {
  domain: text('domain').primaryKey(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  failingSince: timestamptz('failing_since'),
  backoffs: integer('backoffs').notNull().default(0),
  retryAt: timestamptz('retry_at'),
  lastSuccessAt: timestamptz('last_success_at'),
  lastFailureAt: timestamptz('last_failure_at'),
  lastError: text('last_error'),
});
export type DomainHealthRow = typeof federationDomainHealth.$inferSelect;
/** Posts waiting for their public face to settle before it is sent (migration 1880, outbound/). */
export const federationPostSync = pgTable('federation_post_sync', {
  mediaId: uuid('media_id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  dueAt: timestamptz('due_at').notNull(),
});
export type PostSyncRow = typeof federationPostSync.$inferSelect;

/** Posts whose Note was sent to the owner's remote followers, with the digest of what was sent (migration 1880). */
export const federationSentPosts = pgTable('federation_sent_posts', {
  mediaId: uuid('media_id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  digest: text('digest').notNull(),
  sentAt: timestamptz('sent_at').notNull(),
});
export type SentPostRow = typeof federationSentPosts.$inferSelect;
