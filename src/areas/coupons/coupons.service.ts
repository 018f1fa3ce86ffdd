/**
 * Coupons: an operator creates a code with rewards and a user limit; users redeem it once each, through
 * POST /api/users/me/coupons or at registration (`couponCode`, through `user.registered`). A redemption
 * locks the user, writes the (coupon, user) row, takes a place under the limit with a conditional
 * update, then publishes `coupon.redeemed` (gamification gives the rewards), all in one transaction.
 */
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import type { CouponsRepository } from './coupons.repository.ts';
import type { CouponReward } from './events.ts';
import { type BadgeLevels, checkedRewards, rewardIds } from './reward-catalogue.ts';
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

export interface CouponsServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: CouponsRepository;
  users: UsersService;
  /** What creation checks a badge-level reward against. */
  badgeLevels: BadgeLevels;
  audit: AuditLog;
  clock: Clock;
}

export class CouponsService {
  readonly #deps: CouponsServiceDeps;

  constructor(deps: CouponsServiceDeps) {
    this.#deps = deps;
  }

  /** 409 couponCodeTaken when the code exists (whatever its case); audited with the change. */
  async create(input: NewCoupon): Promise<CouponRow> {
    if (input.validFrom !== null && input.validUntil !== null && input.validFrom >= input.validUntil) {
      throw new AppError('validationFailed', {
        source: { pointer: '/validUntil' },
        detail: 'validUntil must be after validFrom',
      });
    }
    const rewards = await checkedRewards(input.rewards, this.#deps.badgeLevels);
    const code = normalizeCode(input.id);
    try {
      return await this.#deps.transactions.run(async () => {
        const coupon = await this.#deps.repository.insert({
          id: newId(),
          code,
          userLimit: input.userLimit,
          redemptionsCount: 0,
          rewards,
          validFrom: input.validFrom,
          validUntil: input.validUntil,
          createdAt: this.#deps.clock.now(),
        });
        await this.#deps.audit.record({
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
    return this.#deps.repository.list(page);
  }

  /** By its UUID or its code (any case); 404 when neither names a coupon. */
  async find(idOrCode: string): Promise<CouponRow> {
    const coupon = uuidShape.test(idOrCode)
      ? await this.#deps.repository.findById(idOrCode.toLowerCase())
      : await this.#deps.repository.findByCode(normalizeCode(idOrCode));
    if (coupon === null) throw new AppError('notFound', { source: { parameter: 'id' }, detail: 'no such coupon' });
    return coupon;
  }

  async redemptions(idOrCode: string, page: PageRequest) {
    const coupon = await this.find(idOrCode);
    return this.#deps.repository.redemptions(coupon.id, page);
  }

  /**
   * Redeems `code` for the user, in the transaction in progress (registration's) or a new one.
   * 422 couponInvalid (unknown, not yet valid, expired: `meta.reason`), 409 couponAlreadyRedeemed,
   * 409 couponExhausted; `pointer` names the body field that held the code.
   */
  redeem(userId: string, rawCode: string, pointer = '/code'): Promise<Redemption> {
    return this.#deps.transactions.run(async () => {
      if ((await this.#deps.users.lock(userId)) === null) throw new AppError('notFound', { detail: 'unknown user' });
      const code = normalizeCode(rawCode);
      const coupon = await this.#deps.repository.findByCode(code);
      const now = this.#deps.clock.now();
      const refuse = (reason: string) =>
        new AppError('couponInvalid', { source: { pointer }, meta: { reason }, detail: `coupon ${reason}` });
      if (coupon === null) throw refuse('unknown');
      if (coupon.validFrom !== null && now < coupon.validFrom) throw refuse('notYetValid');
      if (coupon.validUntil !== null && now >= coupon.validUntil) throw refuse('expired');
      const id = newId();
      if (!(await this.#deps.repository.insertRedemption({ id, couponId: coupon.id, userId, redeemedAt: now }))) {
        throw new AppError('couponAlreadyRedeemed', { source: { pointer } });
      }
      const taken = await this.#deps.repository.takePlace(coupon.id);
      if (taken === null) {
        throw new AppError('couponExhausted', { source: { pointer }, meta: { userLimit: coupon.userLimit } });
      }
      await this.#deps.events.publish('coupon.redeemed', {
        userId,
        couponId: coupon.id,
        rewards: coupon.rewards.flatMap(eventReward),
      });
      return { id, coupon: taken, redeemedAt: now, rewards: coupon.rewards };
    });
  }
}

/** A stored reward as the event tells it (creation checked every reward, so none is unknown). */
function eventReward(reward: StoredReward): CouponReward[] {
  if (reward.rewardId === rewardIds.experience) return [{ kind: 'experience', amount: reward.value }];
  if (reward.rewardId === rewardIds.badgeLevel && reward.badge !== undefined) {
    return [{ kind: 'badgeLevel', badge: reward.badge, level: reward.value }];
  }
  return [];
}
