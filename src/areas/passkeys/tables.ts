import { bigint, boolean, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** A WebAuthn credential registered to an account (migration 1710). */
export const passkeys = pgTable('passkeys', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  /** The authenticator's credential id, base64url. */
  credentialId: text('credential_id').notNull(),
  /** The COSE public key, base64url: never shown, never exported. */
  publicKey: text('public_key').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  transports: jsonb('transports').$type<string[]>().notNull(),
  name: text('name').notNull(),
  deviceType: text('device_type').$type<'singleDevice' | 'multiDevice'>().notNull(),
  backedUp: boolean('backed_up').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  lastUsedAt: timestamptz('last_used_at'),
});
export type PasskeyRow = typeof passkeys.$inferSelect;

export type ChallengePurpose = 'registration' | 'sign-in';

/** A challenge issued by an options call: single use, five minutes (migration 1710). */
export const passkeyChallenges = pgTable('passkey_challenges', {
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose').$type<ChallengePurpose>().notNull(),
  userId: uuid('user_id'),
  createdAt: timestamptz('created_at').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});
export type PasskeyChallengeRow = typeof passkeyChallenges.$inferSelect;
