import { boolean, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** A feed: criteria (null = no such criterion), or hand_picked with its media in socialFeedMedia. */
export const socialFeeds = pgTable('social_feeds', {
  id: uuid('id').primaryKey(),
  code: text('code').notNull(),
  ownerId: uuid('owner_id').notNull(),
  name: text('name').notNull(),
  description: text('description'),
  hashtags: text('hashtags').array(),
  countryCode: text('country_code'),
  cityId: uuid('city_id'),
  handPicked: boolean('hand_picked').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});
export type SocialFeedRow = typeof socialFeeds.$inferSelect;

export const socialFeedMedia = pgTable(
  'social_feed_media',
  { feedId: uuid('feed_id').notNull(), mediaId: uuid('media_id').notNull() },
  (table) => [primaryKey({ columns: [table.feedId, table.mediaId] })],
);
