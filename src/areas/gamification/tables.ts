import { boolean, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
    earnedAt: at('earned_at').notNull(),
    updatedAt: at('updated_at').notNull(),
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
