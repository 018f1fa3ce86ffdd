import { boolean, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { NotificationKind } from './kinds.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const notifications = pgTable('notifications', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  type: text('type').$type<NotificationKind>().notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  dedupKey: text('dedup_key'),
  dedupOpen: boolean('dedup_open').notNull(),
  readAt: at('read_at'),
  pushedAt: at('pushed_at'),
  createdAt: at('created_at').notNull(),
});
export type NotificationRow = typeof notifications.$inferSelect;

export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind, table.channel] })],
);
