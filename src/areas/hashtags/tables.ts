import { date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

/** Uses of a tag per UTC day of the media's creation (derived from media; see migrations/0600_hashtags.sql). */
export const hashtagDailyUses = pgTable(
  'hashtag_daily_uses',
  {
    tag: text('tag').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    uses: integer('uses').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tag, table.day] })],
);

/** All-time uses of a tag, with its accent-free form for autocomplete. */
export const hashtagUses = pgTable('hashtag_uses', {
  tag: text('tag').primaryKey(),
  folded: text('folded').notNull(),
  uses: integer('uses').notNull(),
});

/** Listed posts carrying both tags; each pair is stored in both directions. */
export const hashtagPairs = pgTable(
  'hashtag_pairs',
  {
    tag: text('tag').notNull(),
    other: text('other').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tag, table.other] })],
);

/** What the counts hold of each listed post with tags: its tags and UTC day. */
export const hashtagCountedMedia = pgTable('hashtag_counted_media', {
  mediaId: uuid('media_id').primaryKey(),
  tags: text('tags').array().notNull(),
  day: date('day', { mode: 'string' }).notNull(),
});
