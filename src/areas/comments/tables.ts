import { boolean, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** Who deleted a comment (a placeholder stays in its thread). */
export type DeletedBy = 'author' | 'mediaOwner' | 'moderator' | 'erasure';

/** Comments on media posts (migration 0800): depth 0 top level, 1 reply, 2 reply to a reply. */
export const comments = pgTable('comments', {
  id: uuid('id').primaryKey(),
  mediaId: uuid('media_id').notNull(),
  authorId: uuid('author_id').notNull(),
  parentId: uuid('parent_id'),
  rootId: uuid('root_id'),
  depth: smallint('depth').notNull(),
  body: text('body'),
  mentions: uuid('mentions').array().notNull().default([]),
  hashtags: text('hashtags').array().notNull().default([]),
  authorBanned: boolean('author_banned').notNull().default(false),
  createdAt: timestamptz('created_at').notNull(),
  editedAt: timestamptz('edited_at'),
  deletedAt: timestamptz('deleted_at'),
  deletedBy: text('deleted_by').$type<DeletedBy>(),
});
export type CommentRow = typeof comments.$inferSelect;
