/** What coupons tell other areas. */

/** One reward of a redeemed coupon, as gamification gives it. */
export type CouponReward =
  | { kind: 'experience'; amount: number }
  | { kind: 'badgeLevel'; badge: string; level: number };

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /**
     * `userId` redeemed a coupon (published under the user's lock, in the redemption's transaction):
     * its rewards, in the coupon's order, are given in that transaction (an error refuses the redemption).
     */
    'coupon.redeemed': { userId: string; couponId: string; rewards: CouponReward[] };
  }
}
