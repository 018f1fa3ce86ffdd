import { integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { citext, timestamptz } from '../../platform/db/columns.ts';

/** How a session was opened (sessions.sign_in_method): a password, or an identity provider's sign-in. */
export const signInMethods = ['password', 'google', 'apple', 'facebook'] as const;
export type SignInMethod = (typeof signInMethods)[number];

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
