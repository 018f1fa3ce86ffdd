/**
 * Coupons: an operator creates a code with rewards and a user limit; users redeem it once each, through
 * POST /api/users/me/coupons or at registration (`couponCode`, through `user.registered`). A redemption
 * locks the user, writes the (coupon, user) row, takes a place under the limit with a conditional
 * update, then gives the rewards through gamification, all in one transaction.
 */
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import type { GamificationService } from '../gamification/public.ts';
import type { CouponsRepository } from './coupons.repository.ts';
import { checkedRewards, rewardIds } from './reward-catalogue.ts';
import type { CouponRow, StoredReward } from './tables.ts';

/** Codes are typed by people: 3 to 32 letters, digits and dashes, case-insensitive (kept upper-case). */
/** 3 to 32 letters, digits and dashes, with at least one letter or digit. */
export const couponCodePattern = '^(?=.*[A-Za-z0-9])[A-Za-z0-9-]{3,32}$';
export const normalizeCode = (code: string) => code.trim().toUpperCase();
const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface NewCoupon {
  id: string;
  userLimit: number;
  rewards: { rewardId: number; value: number; badge?: string }[];
  validFrom: Date | null;
  validUntil: Date | null;
}

export interface Redemption {
  id: string;
  coupon: CouponRow;
  redeemedAt: Date;
  rewards: StoredReward[];
}

export class CouponsService {
  private readonly transactions: Transactions;
  private readonly repository: CouponsRepository;
  private readonly users: UsersService;
  private readonly gamification: GamificationService;
  private readonly audit: AuditLog;
  private readonly clock: Clock;

  constructor(
    transactions: Transactions,
    repository: CouponsRepository,
    users: UsersService,
    gamification: GamificationService,
    audit: AuditLog,
    clock: Clock,
  ) {
    this.transactions = transactions;
    this.repository = repository;
    this.users = users;
    this.gamification = gamification;
    this.audit = audit;
    this.clock = clock;
  }

  /** 409 couponCodeTaken when the code exists (whatever its case); audited with the change. */
  async create(input: NewCoupon): Promise<CouponRow> {
    if (input.validFrom !== null && input.validUntil !== null && input.validFrom >= input.validUntil) {
      throw new AppError('validationFailed', {
        source: { pointer: '/validUntil' },
        detail: 'validUntil must be after validFrom',
      });
    }
    const rewards = await checkedRewards(input.rewards, (slug) => this.gamification.badgeLastLevel(slug));
    const code = normalizeCode(input.id);
    try {
      return await this.transactions.run(async () => {
        const coupon = await this.repository.insert({
          id: newId(),
          code,
          userLimit: input.userLimit,
          redemptionsCount: 0,
          rewards,
          validFrom: input.validFrom,
          validUntil: input.validUntil,
          createdAt: this.clock.now(),
        });
        await this.audit.record({
          actor: 'admin',
          action: 'coupon.create',
          targetType: 'coupon',
          targetId: coupon.id,
          payload: { code, userLimit: input.userLimit, rewards },
        });
        return coupon;
      });
    } catch (error) {
      if (uniqueViolation(error) !== null) {
        throw new AppError('couponCodeTaken', { source: { pointer: '/id' }, detail: `the code ${code} exists` });
      }
      throw error;
    }
  }

  list(page: PageRequest) {
    return this.repository.list(page);
  }

  /** By its UUID or its code (any case); 404 when neither names a coupon. */
  async find(idOrCode: string): Promise<CouponRow> {
    const coupon = uuidShape.test(idOrCode)
      ? await this.repository.findById(idOrCode.toLowerCase())
      : await this.repository.findByCode(normalizeCode(idOrCode));
    if (coupon === null) throw new AppError('notFound', { source: { parameter: 'id' }, detail: 'no such coupon' });
    return coupon;
  }

  async redemptions(idOrCode: string, page: PageRequest) {
    const coupon = await this.find(idOrCode);
    return this.repository.redemptions(coupon.id, page);
  }

  /**
   * Redeems `code` for the user, in the transaction in progress (registration's) or a new one.
   * 422 couponInvalid (unknown, not yet valid, expired: `meta.reason`), 409 couponAlreadyRedeemed,
   * 409 couponExhausted; `pointer` names the body field that held the code.
   */
  redeem(userId: string, rawCode: string, pointer = '/code'): Promise<Redemption> {
    return this.transactions.run(async () => {
      if ((await this.users.lock(userId)) === null) throw new AppError('notFound', { detail: 'unknown user' });
      const code = normalizeCode(rawCode);
      const coupon = await this.repository.findByCode(code);
      const now = this.clock.now();
      const refuse = (reason: string) =>
        new AppError('couponInvalid', { source: { pointer }, meta: { reason }, detail: `coupon ${reason}` });
      if (coupon === null) throw refuse('unknown');
      if (coupon.validFrom !== null && now < coupon.validFrom) throw refuse('notYetValid');
      if (coupon.validUntil !== null && now >= coupon.validUntil) throw refuse('expired');
      const id = newId();
      if (!(await this.repository.insertRedemption({ id, couponId: coupon.id, userId, redeemedAt: now }))) {
        throw new AppError('couponAlreadyRedeemed', { source: { pointer } });
      }
      const taken = await this.repository.takePlace(coupon.id);
      if (taken === null) {
        throw new AppError('couponExhausted', { source: { pointer }, meta: { userLimit: coupon.userLimit } });
      }
      for (const reward of coupon.rewards) await this.#give(userId, reward);
      return { id, coupon: taken, redeemedAt: now, rewards: coupon.rewards };
    });
  }

  async #give(userId: string, reward: StoredReward): Promise<void> {
    if (reward.rewardId === rewardIds.experience) {
      await this.gamification.awardExperience(userId, reward.value, 'coupon.redeemed');
    } else if (reward.rewardId === rewardIds.badgeLevel && reward.badge !== undefined) {
      await this.gamification.awardBadgeLevel(userId, reward.badge, reward.value);
    }
  }
}
