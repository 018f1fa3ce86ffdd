import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

export const bookmarkCollections = pgTable('bookmark_collections', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
export type CollectionRow = typeof bookmarkCollections.$inferSelect;

export const bookmarks = pgTable('bookmarks', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  mediaId: uuid('media_id').notNull(),
  collectionId: uuid('collection_id'),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
export type BookmarkRow = typeof bookmarks.$inferSelect;
