import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { NotificationKind } from './kinds.ts';

export const notifications = pgTable('notifications', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  type: text('type').$type<NotificationKind>().notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  dedupKey: text('dedup_key'),
  dedupOpen: boolean('dedup_open').notNull(),
  readAt: timestamptz('read_at'),
  pushedAt: timestamptz('pushed_at'),
  /** While in the future, a push flush holds the row (see migration 0140). */
  pushClaimedUntil: timestamptz('push_claimed_until'),
  /** Provider answers of 400 for this row: one keeps it for the next flush, two give up. */
  pushRejections: smallint('push_rejections').notNull().default(0),
  createdAt: timestamptz('created_at').notNull(),
  /** The row's position in its owner's live stream: a sequence, taken again on a soft-dedup refresh (migration 1800). */
  streamSeq: bigint('stream_seq', { mode: 'number' }).notNull().default(sql`nextval('notifications_stream_seq')`),
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

/** Per-user feed counts, kept by triggers (migration 0130); read-only for the code. */
export const notificationCounters = pgTable('notification_counters', {
  ownerId: uuid('owner_id').primaryKey(),
  total: integer('total').notNull().default(0),
  unread: integer('unread').notNull().default(0),
});

/** The live streams open now on every instance, for the per-user cap (migration 1800). */
export const notificationStreams = pgTable('notification_streams', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  /** The order streams were opened in, across instances: the oldest is closed first. */
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  openedAt: timestamptz('opened_at').notNull(),
});

/** Browsers' Web Push subscriptions (migration 1810): at most 10 a user, an endpoint belongs to one user. */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  endpoint: text('endpoint').notNull(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  locale: text('locale').$type<Locale>().notNull(),
  createdAt: timestamptz('created_at').notNull(),
});
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** The flush pushes each subscription accepted, by the push's idempotency key. */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    subscriptionId: uuid('subscription_id').notNull(),
    pushKey: uuid('push_key').notNull(),
    deliveredAt: timestamptz('delivered_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.subscriptionId, table.pushKey] })],
);
