/** Coupons and redemptions as JSON:API resources. */
import { Type } from 'typebox';
import {
  Nullable,
  RelationshipSchema,
  ResourceSchema,
  relation,
  resource,
  Timestamp,
} from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import type { RedemptionWithUser } from './coupons.repository.ts';
import type { Redemption } from './coupons.service.ts';
import type { CouponRow, StoredReward } from './tables.ts';

export const RewardSchema = Type.Object(
  {
    rewardId: Type.Integer({ description: '1 experience points, 2 a badge level' }),
    value: Type.Integer({ description: 'the experience points, or the badge level' }),
    badge: Type.Optional(Type.String({ description: "the badge's slug (reward 2)" })),
  },
  { title: 'CouponReward' },
);

const presentReward = (reward: StoredReward) =>
  reward.badge === undefined
    ? { rewardId: reward.rewardId, value: reward.value }
    : { rewardId: reward.rewardId, value: reward.value, badge: reward.badge };

export const CouponSchema = ResourceSchema(
  'coupons',
  Type.Object({
    code: Type.String({ description: 'what users type (upper-case; typed in any case)' }),
    userLimit: Type.Integer(),
    redemptionsCount: Type.Integer(),
    remaining: Type.Integer({ description: 'userLimit - redemptionsCount' }),
    rewards: Type.Array(RewardSchema),
    validFrom: Nullable(Timestamp),
    validUntil: Nullable(Timestamp),
    createdAt: Timestamp,
  }),
  undefined,
  'Coupon',
);

export function presentCoupon(coupon: CouponRow) {
  return resource('coupons', coupon.id, {
    code: coupon.code,
    userLimit: coupon.userLimit,
    redemptionsCount: coupon.redemptionsCount,
    remaining: coupon.userLimit - coupon.redemptionsCount,
    rewards: coupon.rewards.map(presentReward),
    validFrom: formatNullableTimestamp(coupon.validFrom),
    validUntil: formatNullableTimestamp(coupon.validUntil),
    createdAt: formatTimestamp(coupon.createdAt),
  });
}

/** For operators: who redeemed and when. */
export const CouponRedemptionSchema = ResourceSchema(
  'couponRedemptions',
  Type.Object({ username: Nullable(Type.String()), redeemedAt: Timestamp }),
  Type.Object({ user: RelationshipSchema('users'), coupon: RelationshipSchema('coupons') }),
  'CouponRedemption',
);

export function presentCouponRedemption(row: RedemptionWithUser) {
  return resource(
    'couponRedemptions',
    row.id,
    { username: row.username, redeemedAt: formatTimestamp(row.redeemedAt) },
    { user: relation('users', row.userId), coupon: relation('coupons', row.couponId) },
  );
}

/** For the user who redeemed: the code and what it gave. */
export const MyCouponRedemptionSchema = ResourceSchema(
  'couponRedemptions',
  Type.Object({ code: Type.String(), redeemedAt: Timestamp, rewards: Type.Array(RewardSchema) }),
  Type.Object({ coupon: RelationshipSchema('coupons') }),
  'MyCouponRedemption',
);

export function presentMyRedemption(redemption: Redemption) {
  return resource(
    'couponRedemptions',
    redemption.id,
    {
      code: redemption.coupon.code,
      redeemedAt: formatTimestamp(redemption.redeemedAt),
      rewards: redemption.rewards.map(presentReward),
    },
    { coupon: relation('coupons', redemption.coupon.id) },
  );
}
