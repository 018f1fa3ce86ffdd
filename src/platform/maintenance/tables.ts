/** Maintenance mode: one row that every instance on the database reads (see maintenance-mode.ts). */
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

export const maintenanceState = pgTable('maintenance_state', {
  id: boolean('id').primaryKey(),
  enabled: boolean('enabled').notNull(),
  message: text('message'),
  retryAfterSeconds: integer('retry_after_seconds').notNull(),
  updatedAt: timestamptz('updated_at'),
});
