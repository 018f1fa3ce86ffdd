import { integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** One reward of a coupon, as stored (rewards.ts: the catalogue). */
export interface StoredReward {
  rewardId: number;
  value: number;
  /** The badge's slug, for a badge-level reward. */
  badge?: string;
}

export const coupons = pgTable('coupons', {
  id: uuid('id').primaryKey(),
  code: text('code').notNull(),
  userLimit: integer('user_limit').notNull(),
  redemptionsCount: integer('redemptions_count').notNull(),
  rewards: jsonb('rewards').$type<StoredReward[]>().notNull(),
  validFrom: timestamptz('valid_from'),
  validUntil: timestamptz('valid_until'),
  createdAt: timestamptz('created_at').notNull(),
});
export type CouponRow = typeof coupons.$inferSelect;

export const couponRedemptions = pgTable('coupon_redemptions', {
  id: uuid('id').primaryKey(),
  couponId: uuid('coupon_id').notNull(),
  userId: uuid('user_id').notNull(),
  redeemedAt: timestamptz('redeemed_at').notNull(),
});
export type CouponRedemptionRow = typeof couponRedemptions.$inferSelect;
