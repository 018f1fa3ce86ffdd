/** Remote posts' tables (migration 1895): the notes of followed remote actors, and local likes and replies of them. */
import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../../platform/db/columns.ts';

/** An attachment of a remote post as kept: its URL on the author's server (never fetched here). */
export interface RemoteAttachment {
  url: string;
  mediaType: string | null;
  /** Its description (alt text), plain text. */
  name: string | null;
  width: number | null;
  height: number | null;
}

export const federationRemotePosts = pgTable(
  'federation_remote_posts',
  {
    id: uuid('id').primaryKey(),
    uri: text('uri').notNull().unique(),
    authorId: uuid('author_id').notNull(),
    url: text('url').notNull(),
    content: text('content'),
    summary: text('summary'),
    sensitive: boolean('sensitive').notNull().default(false),
    publishedAt: timestamptz('published_at').notNull(),
    editedAt: timestamptz('edited_at'),
    receivedAt: timestamptz('received_at').notNull(),
    attachments: jsonb('attachments').$type<RemoteAttachment[]>().notNull().default([]),
  },
  (table) => [index('federation_remote_posts_published').on(table.publishedAt)],
);
export type RemotePostRow = typeof federationRemotePosts.$inferSelect;

export const federationRemotePostLikes = pgTable(
  'federation_remote_post_likes',
  {
    postId: uuid('post_id').notNull(),
    userId: uuid('user_id').notNull(),
    activityUri: text('activity_uri').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.postId, table.userId] })],
);

export const federationRemotePostReplies = pgTable('federation_remote_post_replies', {
  id: uuid('id').primaryKey(),
  postId: uuid('post_id').notNull(),
  userId: uuid('user_id').notNull(),
  text: text('text').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});
export type RemotePostReplyRow = typeof federationRemotePostReplies.$inferSelect;
