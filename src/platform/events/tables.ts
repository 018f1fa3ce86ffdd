/** After-commit work to try again (migration 2000): one row per work and key. */
import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

export const afterCommitRetries = pgTable(
  'after_commit_retries',
  {
    /** The subscriber's name (`discovery.mapCells.likes`): which work to run again. */
    work: text('work').notNull(),
    /** What the work is about (a media id, a user id). */
    key: text('key').notNull(),
    /** New at every failure filed: a retry's outcome applies to the filing it ran for, not a later one. */
    filing: uuid('filing').notNull(),
    /** Retries run since the last failure filed. */
    attempts: integer('attempts').notNull(),
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    lastError: text('last_error').notNull(),
    filedAt: timestamptz('filed_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.work, table.key] })],
);
export type AfterCommitRetryRow = typeof afterCommitRetries.$inferSelect;
