import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** A secret share link: only its token's SHA-256 and its password's argon2id hash are kept. */
export const shareLinks = pgTable('share_links', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  targetKind: text('target_kind').notNull(),
  targetId: uuid('target_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  passwordHash: text('password_hash'),
  expiresAt: timestamptz('expires_at'),
  views: integer('views').notNull().default(0),
  createdAt: timestamptz('created_at').notNull(),
});
export type ShareLinkRow = typeof shareLinks.$inferSelect;
