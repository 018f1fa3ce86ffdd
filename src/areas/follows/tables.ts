import { pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id').notNull(),
    followeeId: uuid('followee_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.followerId, table.followeeId] })],
);
export type FollowRow = typeof follows.$inferSelect;

/** Pairs that have ever followed, so the experience for a follow received is given once per pair. */
export const followRewards = pgTable(
  'follow_rewards',
  { followerId: uuid('follower_id').notNull(), followeeId: uuid('followee_id').notNull() },
  (table) => [primaryKey({ columns: [table.followerId, table.followeeId] })],
);
