import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** The catalogue, seeded by migration 0400; labels are in messages/, by slug. */
export const topics = pgTable('topics', {
  id: uuid('id').primaryKey(),
  slug: text('slug').notNull(),
  icon: text('icon').notNull(),
  hashtags: text('hashtags').array().notNull(),
  position: integer('position').notNull(),
});
export type TopicRow = typeof topics.$inferSelect;

export const userTopics = pgTable(
  'user_topics',
  {
    userId: uuid('user_id').notNull(),
    topicId: uuid('topic_id').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.topicId] })],
);
