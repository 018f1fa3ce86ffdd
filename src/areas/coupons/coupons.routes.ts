/** Coupons, the user's side: redeeming a code. */
import { Type } from 'typebox';
import { DocumentSchema } from '../../platform/http/jsonapi.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { couponCodePattern } from './coupons.service.ts';
import { MyCouponRedemptionSchema, presentMyRedemption } from './presenters.ts';
import type { CouponsServices } from './public.ts';

/** A coupon code, as redeemed and as created. */
export const CouponCode = Type.String({
  pattern: couponCodePattern,
  description: '3 to 32 letters, digits and dashes; case-insensitive',
});

export function couponsRoutes({ coupons }: Pick<CouponsServices, 'coupons'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/api/users/me/coupons',
      auth: 'user',
      summary: 'Redeem a coupon code (once per user and coupon); its rewards are given at once',
      // Codes are guessable by trying: a tight budget per account, a looser one per address.
      rateLimit: [perIp('coupon-redeem', 30, 3600), perUser('coupon-redeem', 10, 3600)],
      body: Type.Object({ code: CouponCode }, { additionalProperties: false }),
      errors: ['couponInvalid', 'couponExhausted', 'couponAlreadyRedeemed'],
      success: { status: 201, schema: DocumentSchema(MyCouponRedemptionSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentMyRedemption(await coupons.redeem(viewer.userId, body.code)),
      }),
    }),
  ];
}
