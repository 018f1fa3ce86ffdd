import { boolean, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

export const badges = pgTable('badges', {
  id: uuid('id').primaryKey(),
  slug: text('slug').notNull(),
  label: text('label').notNull(),
  icon: text('icon').notNull(),
  metric: text('metric').notNull(),
  thresholds: integer('thresholds').array().notNull(),
  xpRewards: integer('xp_rewards').array().notNull(),
  position: integer('position').notNull(),
  active: boolean('active').notNull(),
});
export type BadgeRow = typeof badges.$inferSelect;

export const userBadges = pgTable(
  'user_badges',
  {
    userId: uuid('user_id').notNull(),
    badgeId: uuid('badge_id').notNull(),
    level: integer('level').notNull(),
    earnedAt: timestamptz('earned_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.badgeId] })],
);

export const titles = pgTable('titles', {
  slug: text('slug').primaryKey(),
  rankIndex: integer('rank_index').notNull(),
  label: text('label').notNull(),
  active: boolean('active').notNull(),
});
export type TitleRow = typeof titles.$inferSelect;

/** Awards that a daily ceiling counts or a take-back may return (migration 0150); `amount` < 0 for a take-back. */
export const experienceAwards = pgTable('experience_awards', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  reason: text('reason').notNull(),
  subjectId: uuid('subject_id'),
  amount: integer('amount').notNull(),
  awardedAt: timestamptz('awarded_at').notNull(),
});
export type ExperienceAwardRow = typeof experienceAwards.$inferSelect;
