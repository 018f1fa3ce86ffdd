import { boolean, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

export const filters = pgTable('filters', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  title: text('title').notNull(),
  contexts: text('contexts').array().notNull(),
  action: text('action').notNull(),
  expiresAt: timestamptz('expires_at'),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
export type FilterRow = typeof filters.$inferSelect;

export const filterKeywords = pgTable(
  'filter_keywords',
  {
    filterId: uuid('filter_id').notNull(),
    position: integer('position').notNull(),
    keyword: text('keyword').notNull(),
    wholeWord: boolean('whole_word').notNull(),
    folded: text('folded').notNull(),
  },
  (table) => [primaryKey({ columns: [table.filterId, table.position] })],
);
export type FilterKeywordRow = typeof filterKeywords.$inferSelect;
