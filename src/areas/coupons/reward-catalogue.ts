/**
 * What a coupon can give (docs/api.md, Coupons): each reward is `{rewardId, value}` with an id from
 * this catalogue. Checked when the coupon is created, so a redemption never meets an unknown reward.
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { StoredReward } from './tables.ts';

export const rewardIds = {
  /** Experience points: `value` 1..10000. */
  experience: 1,
  /** A badge level: `value` is the level (1..the badge's last level), `badge` the badge's slug. */
  badgeLevel: 2,
} as const;

export const maxExperienceReward = 10_000;
export const maxRewardsPerCoupon = 10;

/** What creation needs of gamification's badges: the last level of a badge, or null when unknown. */
export type BadgeLevels = (slug: string) => Promise<number | null>;

const invalid = (index: number, field: string, detail: string) =>
  new AppError('validationFailed', { source: { pointer: `/rewards/${index}/${field}` }, detail });

/** The rewards as stored, or a 422 naming the first bad one; a reward may not appear twice. */
export async function checkedRewards(
  rewards: readonly { rewardId: number; value: number; badge?: string }[],
  badgeLevels: BadgeLevels,
): Promise<StoredReward[]> {
  const seen = new Set<string>();
  const checked: StoredReward[] = [];
  for (const [index, reward] of rewards.entries()) {
    if (reward.rewardId === rewardIds.experience) {
      if (reward.badge !== undefined) throw invalid(index, 'badge', 'an experience reward names no badge');
      if (reward.value < 1 || reward.value > maxExperienceReward) {
        throw invalid(index, 'value', `experience must be from 1 to ${maxExperienceReward}`);
      }
      checked.push({ rewardId: reward.rewardId, value: reward.value });
    } else if (reward.rewardId === rewardIds.badgeLevel) {
      if (reward.badge === undefined) throw invalid(index, 'badge', 'a badge-level reward names its badge');
      const maxLevel = await badgeLevels(reward.badge);
      if (maxLevel === null) throw invalid(index, 'badge', `no badge has the slug ${reward.badge}`);
      if (reward.value < 1 || reward.value > maxLevel) {
        throw invalid(index, 'value', `the level of ${reward.badge} must be from 1 to ${maxLevel}`);
      }
      checked.push({ rewardId: reward.rewardId, value: reward.value, badge: reward.badge });
    } else {
      throw invalid(index, 'rewardId', `unknown reward id ${reward.rewardId} (1 experience, 2 badge level)`);
    }
    const key = `${reward.rewardId}:${reward.badge ?? ''}`;
    if (seen.has(key)) throw invalid(index, 'rewardId', 'the same reward is given twice');
    seen.add(key);
  }
  return checked;
}
