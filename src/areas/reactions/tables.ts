import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
