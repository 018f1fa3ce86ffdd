import { bigint, boolean, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** One click on an offer (migration 1100): what attribution needs, copied from the offer and media at click time. */
export const trackingClicks = pgTable('tracking_clicks', {
  ref: text('ref').primaryKey(),
  offerId: uuid('offer_id').notNull(),
  mediaId: uuid('media_id'),
  creatorId: uuid('creator_id'),
  establishmentId: uuid('establishment_id'),
  brandId: uuid('brand_id'),
  viewerId: uuid('viewer_id'),
  visitorKey: text('visitor_key'),
  source: text('source').$type<'api' | 'redirect'>().notNull(),
  bot: boolean('bot').notNull(),
  /** The media's own creator clicked (migration 1101): recorded, never credited. */
  ownClick: boolean('own_click').notNull().default(false),
  currency: text('currency').notNull(),
  commissionRateBps: integer('commission_rate_bps').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});
export type ClickRow = typeof trackingClicks.$inferSelect;

/** One partner postback: amounts in integer minor units (bigint, read as JavaScript bigint). */
export const trackingConversions = pgTable('tracking_conversions', {
  id: uuid('id').primaryKey(),
  clickRef: text('click_ref')
    .notNull()
    .references(() => trackingClicks.ref, { onDelete: 'cascade' }),
  partnerTransactionId: text('partner_transaction_id').notNull().unique(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  currency: text('currency').notNull(),
  commission: bigint('commission', { mode: 'bigint' }).notNull(),
  occurredAt: timestamptz('occurred_at').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});
export type ConversionRow = typeof trackingConversions.$inferSelect;

/** Serializes the clicks of one clicker on one offer and media (migration 1100): see ClicksService. */
export const trackingClickLocks = pgTable('tracking_click_locks', {
  key: text('key').primaryKey(),
  lockedAt: timestamptz('locked_at').notNull(),
});
