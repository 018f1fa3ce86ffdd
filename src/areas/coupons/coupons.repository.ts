/** All SQL of coupons: the coupons, their counter, and the redemptions. */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { defineKeyset, newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { userRows as users } from '../accounts/read-model.ts';
import { type CouponRow, couponRedemptions, coupons } from './tables.ts';

/** Coupons, newest first. */
export const couponsKeyset = newestFirst<CouponRow>('coupons', coupons);

/** A redemption with who redeemed (their username, null once erased or never chosen). */
export interface RedemptionWithUser {
  id: string;
  couponId: string;
  userId: string;
  username: string | null;
  redeemedAt: Date;
}

/** A coupon's redemptions, newest first. */
export const redemptionsKeyset = defineKeyset<RedemptionWithUser>({
  name: 'couponRedemptions',
  shape: ['timestamp', 'uuid'],
  columns: [couponRedemptions.redeemedAt, couponRedemptions.id],
  keyOf: (row) => [row.redeemedAt, row.id],
});

export class CouponsRepository extends Repository {
  async insert(row: typeof coupons.$inferInsert): Promise<CouponRow> {
    const [inserted] = await this.db.insert(coupons).values(row).returning();
    return returned(inserted, 'coupons.insert');
  }

  async findById(id: string): Promise<CouponRow | null> {
    const [row] = await this.db.select().from(coupons).where(eq(coupons.id, id));
    return row ?? null;
  }

  async findByCode(code: string): Promise<CouponRow | null> {
    const [row] = await this.db.select().from(coupons).where(eq(coupons.code, code));
    return row ?? null;
  }

  async list(page: PageRequest): Promise<CouponRow[]> {
    const { where, orderBy } = keyset(couponsKeyset, page);
    return this.db
      .select()
      .from(coupons)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /**
   * An erased account (`user.erasing`): its redemptions. Each coupon's `redemptions_count` keeps
   * them: the places were used, and a limited coupon must not hand them out again.
   */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(couponRedemptions).where(eq(couponRedemptions.userId, userId));
  }

  /** false when the user already redeemed this coupon (the unique pair; a parallel one waits for ours). */
  async insertRedemption(row: typeof couponRedemptions.$inferInsert): Promise<boolean> {
    const inserted = await this.db
      .insert(couponRedemptions)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: couponRedemptions.id });
    return inserted.length > 0;
  }

  /**
   * Takes one place under the limit: a conditional update, so of parallel redemptions (each waiting
   * for the row lock of the one before, then re-reading the count) exactly `userLimit` succeed.
   */
  async takePlace(couponId: string): Promise<CouponRow | null> {
    const [row] = await this.db
      .update(coupons)
      .set({ redemptionsCount: sql`${coupons.redemptionsCount} + 1` })
      .where(and(eq(coupons.id, couponId), lt(coupons.redemptionsCount, coupons.userLimit)))
      .returning();
    return row ?? null;
  }

  async redemptions(couponId: string, page: PageRequest): Promise<RedemptionWithUser[]> {
    const { where, orderBy } = keyset(redemptionsKeyset, page);
    return this.db
      .select({
        id: couponRedemptions.id,
        couponId: couponRedemptions.couponId,
        userId: couponRedemptions.userId,
        username: users.username,
        redeemedAt: couponRedemptions.redeemedAt,
      })
      .from(couponRedemptions)
      .innerJoin(users, eq(users.id, couponRedemptions.userId))
      .where(and(eq(couponRedemptions.couponId, couponId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** The data export's coupon redemptions of a user, with each coupon's code and rewards, in keyset batches by id. */
  async exportRows(userId: string, after: string | null, limit: number) {
    return this.db
      .select({
        id: couponRedemptions.id,
        couponId: couponRedemptions.couponId,
        code: coupons.code,
        rewards: coupons.rewards,
        redeemedAt: couponRedemptions.redeemedAt,
      })
      .from(couponRedemptions)
      .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
      .where(and(eq(couponRedemptions.userId, userId), after === null ? undefined : gt(couponRedemptions.id, after)))
      .orderBy(couponRedemptions.id)
      .limit(limit);
  }
}
