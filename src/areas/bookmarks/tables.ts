import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const bookmarkCollections = pgTable('bookmark_collections', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});
export type CollectionRow = typeof bookmarkCollections.$inferSelect;

export const bookmarks = pgTable('bookmarks', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  mediaId: uuid('media_id').notNull(),
  collectionId: uuid('collection_id'),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});
export type BookmarkRow = typeof bookmarks.$inferSelect;
