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
  fetchedAt: timestamptz('fetched_at').notNull(),
});
export type RemoteActorRow = typeof federationRemoteActors.$inferSelect;

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
