import { pgTable, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** One running export per user (migration 1500): a lease renewed while the archive streams. */
export const exportLeases = pgTable('export_leases', {
  userId: uuid('user_id').primaryKey(),
  holder: uuid('holder').notNull(),
  startedAt: timestamptz('started_at').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});
export type ExportLeaseRow = typeof exportLeases.$inferSelect;
