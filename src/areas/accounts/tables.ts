import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { citext, timestamptz } from '../../platform/db/columns.ts';

/** How a session was opened (sessions.sign_in_method): a password, an identity provider's sign-in, or a passkey. */
export const signInMethods = ['password', 'google', 'apple', 'facebook', 'passkey'] as const;
export type SignInMethod = (typeof signInMethods)[number];

/**
 * How a session passed a second factor (sessions.second_factor, migration 1700): a TOTP code, a
 * recovery code (both through POST /api/auth/two-factor), or a user-verifying passkey, which is both.
 */
export const secondFactors = ['totp', 'recovery-code', 'user-verification'] as const;
export type SecondFactor = (typeof secondFactors)[number];

export interface UserSettings {
  /** Whether new media show their position publicly unless the owner says otherwise. */
  publishLocationByDefault: boolean;
  /** Whether GET /api/users/{id}/likes and /dislikes answer for this user. */
  showReactionsPublicly: boolean;
  /** Whether the account appears in GET /api/users/search. */
  discoverable: boolean;
  /** Product news by e-mail. */
  marketingEmails: boolean;
  /** The city the user was born in (geography's city id), checked when set; null when not given. */
  birthCityId: string | null;
  /** Whether the web pages blur media marked sensitive behind their content warning until clicked. */
  blurSensitiveMedia: boolean;
}

export interface PostalAddress {
  recipient: string;
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  region: string | null;
  countryCode: string;
  phone: string | null;
}

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: citext('email').notNull(),
  passwordHash: text('password_hash'),
  username: citext('username'),
  nickname: text('nickname'),
  emailConfirmedAt: timestamptz('email_confirmed_at'),
  usernameChangedAt: timestamptz('username_changed_at'),
  sponsorCode: text('sponsor_code').notNull(),
  sponsoredBy: uuid('sponsored_by'),
  level: integer('level').notNull().default(0),
  experience: integer('experience').notNull().default(0),
  settings: jsonb('settings').$type<Partial<UserSettings>>().notNull(),
  address: jsonb('address').$type<PostalAddress | null>(),
  verifiedAt: timestamptz('verified_at'),
  bannedAt: timestamptz('banned_at'),
  banReason: text('ban_reason'),
  /** When the ban ends by itself (the bans job lifts it); null: until an operator lifts it. */
  bannedUntil: timestamptz('banned_until'),
  anonymizedAt: timestamptz('anonymized_at'),
  deletionRequestedAt: timestamptz('deletion_requested_at'),
  avatarMediaId: uuid('avatar_media_id'),
  coverMediaId: uuid('cover_media_id'),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
  /**
   * A remote actor's handle (`ana@mastodon.example`, migration 1870): the row is its local shadow
   * (federation); null for local users.
   */
  remoteHandle: citext('remote_handle'),
});
export type UserRow = typeof users.$inferSelect;

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  lastSeenAt: timestamptz('last_seen_at').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  userAgent: text('user_agent'),
  ip: text('ip'),
  /** How the session was opened: a password or an identity provider (migration 0030). */
  signInMethod: text('sign_in_method').$type<SignInMethod>().notNull().default('password'),
  /** The second factor the sign-in passed, if any (migration 1700). */
  secondFactor: text('second_factor').$type<SecondFactor>(),
});
export type SessionRow = typeof sessions.$inferSelect;

export type TokenPurpose = 'confirm-email' | 'reset-password' | 'delete-account';

export const userTokens = pgTable('user_tokens', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  purpose: text('purpose').$type<TokenPurpose>().notNull(),
  tokenHash: text('token_hash').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  usedAt: timestamptz('used_at'),
});

/** An account's TOTP secret (migration 1700): on once `enabledAt` is set; never leaves the server in clear but at enrolment. */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id').primaryKey(),
  /** AES-256-GCM of the base32 secret (two-factor-keys.ts). */
  secretCiphertext: text('secret_ciphertext').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  enabledAt: timestamptz('enabled_at'),
  /** The last time step whose code was accepted; codes of that step and before are refused. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
});
export type TwoFactorRow = typeof userTwoFactor.$inferSelect;

/** Single-use recovery codes, as keyed hashes. */
export const twoFactorRecoveryCodes = pgTable('two_factor_recovery_codes', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  codeHash: text('code_hash').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  usedAt: timestamptz('used_at'),
});

/** Sign-in tickets that opened their session (kept until they expire, so none opens two). */
export const twoFactorSpentTickets = pgTable('two_factor_spent_tickets', {
  ticketId: uuid('ticket_id').primaryKey(),
  userId: uuid('user_id').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});

/** The devices (user agent and network) an account signed in from: the new-device mail. */
export const signInDevices = pgTable(
  'sign_in_devices',
  {
    userId: uuid('user_id').notNull(),
    deviceKey: text('device_key').notNull(),
    userAgent: text('user_agent'),
    network: text('network').notNull(),
    firstSeenAt: timestamptz('first_seen_at').notNull(),
    lastSeenAt: timestamptz('last_seen_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.deviceKey] })],
);
export type SignInDeviceRow = typeof signInDevices.$inferSelect;

/** A block (migration 1600): it works both ways at once, whoever made it (read-model.ts `shownTo`). */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id').notNull(),
    blockedId: uuid('blocked_id').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.blockerId, table.blockedId] })],
);
export type UserBlockRow = typeof userBlocks.$inferSelect;

/** A mute: one way, silent; `notifications` stops the muted person's notifications too; ends at `expiresAt`. */
export const userMutes = pgTable(
  'user_mutes',
  {
    muterId: uuid('muter_id').notNull(),
    mutedId: uuid('muted_id').notNull(),
    notifications: boolean('notifications').notNull(),
    expiresAt: timestamptz('expires_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.muterId, table.mutedId] })],
);
export type UserMuteRow = typeof userMutes.$inferSelect;

/** A user's block of a remote domain and its subdomains (migration 1900): its actors are to them as blocked users. */
export const userDomainBlocks = pgTable(
  'user_domain_blocks',
  {
    userId: uuid('user_id').notNull(),
    domain: text('domain').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.domain] })],
);
export type UserDomainBlockRow = typeof userDomainBlocks.$inferSelect;
