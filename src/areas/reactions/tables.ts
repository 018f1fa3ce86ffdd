import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const reactionTypes = ['like', 'dislike'] as const;
export type ReactionType = (typeof reactionTypes)[number];

export const mediaReactions = pgTable('media_reactions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  mediaId: uuid('media_id').notNull(),
  type: text('type').$type<ReactionType>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});
export type ReactionRow = typeof mediaReactions.$inferSelect;

/** The first like of each user on each media (migration 0212): unlike and like again rewards no one twice. */
export const likeRewards = pgTable(
  'like_rewards',
  {
    likerId: uuid('liker_id').notNull(),
    mediaId: uuid('media_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.likerId, table.mediaId] })],
);
