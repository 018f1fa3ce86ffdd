/** Coupons, the operators' routes: create, list, redemptions. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { parseClientTime } from '../../platform/http/time.ts';
import { couponsKeyset, redemptionsKeyset } from './coupons.repository.ts';
import { CouponCode } from './coupons.routes.ts';
import { CouponRedemptionSchema, CouponSchema, presentCoupon, presentCouponRedemption } from './presenters.ts';
import type { CouponsServices } from './public.ts';
import { maxExperienceReward, maxRewardsPerCoupon } from './reward-catalogue.ts';

const NewRewardSchema = Type.Object(
  {
    rewardId: Type.Integer({ description: '1 experience points, 2 a badge level' }),
    value: Type.Integer({ description: `experience 1..${maxExperienceReward}, or the badge level 1..its last` }),
    badge: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "the badge's slug (reward 2 only)" })),
  },
  { additionalProperties: false },
);

/** A client time, or 422 on its field when no timestamp can hold it. */
function clientTime(value: string | undefined, pointer: string): Date | null {
  if (value === undefined) return null;
  const date = parseClientTime(value);
  if (date === null) throw new AppError('validationFailed', { source: { pointer }, detail: 'not a usable time' });
  return date;
}

export function couponsAdminRoutes({ coupons }: Pick<CouponsServices, 'coupons'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/admin/coupons',
      auth: 'admin',
      summary: 'Create a coupon: its code (id), how many users may redeem it, its rewards and validity window',
      body: Type.Object(
        {
          id: CouponCode,
          userLimit: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
          rewards: Type.Array(NewRewardSchema, { minItems: 1, maxItems: maxRewardsPerCoupon }),
          validFrom: Type.Optional(Type.String({ format: 'date-time' })),
          validUntil: Type.Optional(Type.String({ format: 'date-time' })),
        },
        { additionalProperties: false },
      ),
      errors: ['couponCodeTaken'],
      success: { status: 201, schema: DocumentSchema(CouponSchema) },
      handler: async ({ body }) => ({
        data: presentCoupon(
          await coupons.create({
            id: body.id,
            userLimit: body.userLimit,
            rewards: body.rewards,
            validFrom: clientTime(body.validFrom, '/validFrom'),
            validUntil: clientTime(body.validUntil, '/validUntil'),
          }),
        ),
      }),
    }),
    route({
      method: 'GET',
      path: '/admin/coupons',
      auth: 'admin',
      summary: 'Coupons, newest first',
      page: { keyset: couponsKeyset },
      success: { status: 200, schema: CollectionSchema(CouponSchema) },
      handler: async ({ page, links }) =>
        listDocument(await coupons.list(page), { page, links }, couponsKeyset, presentCoupon),
    }),
    route({
      method: 'GET',
      path: '/admin/coupons/{id}/redemptions',
      auth: 'admin',
      summary: 'Who redeemed a coupon and when, newest first ({id}: the coupon UUID or its code)',
      params: {
        id: Type.String({ pattern: '^[A-Za-z0-9-]{3,36}$', description: 'The coupon UUID or its code (any case)' }),
      },
      page: { keyset: redemptionsKeyset },
      errors: ['notFound'],
      success: { status: 200, schema: CollectionSchema(CouponRedemptionSchema) },
      handler: async ({ params, page, links }) => {
        const rows = await coupons.redemptions(params.id, page);
        return listDocument(rows, { page, links }, redemptionsKeyset, presentCouponRedemption);
      },
    }),
  ];
}
