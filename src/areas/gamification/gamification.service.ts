/**
 * Experience, levels, titles and badges. Other areas call awardExperience, awardBadgeLevel and
 * recordBadgeProgress (in their transaction, or a new one); each level, title or badge level crossed is
 * published (user.levelReached, user.titleReached, badge.earned) in the same transaction as the update,
 * where notifications announce it, so a rollback removes them together.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { defaultLocale, hasMessage, translate } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import './events.ts';
import type { GamificationRepository } from './gamification.repository.ts';
import { levelForExperience, titleBucketOf, titleBucketSize } from './level-curve.ts';
import type { BadgeRow, TitleRow } from './tables.ts';

export interface ExperienceAward {
  /** What was added: the amount asked, or less when the reason's daily ceiling cut it (0 at the ceiling). */
  granted: number;
  experience: number;
  previousLevel: number;
  level: number;
  /** Titles reached by this award, lowest first. */
  titlesReached: string[];
  reason: string;
}

export interface BadgeAward {
  badgeSlug: string;
  previousLevel: number;
  level: number;
  experience: ExperienceAward | null;
}

export const badgeMaxLevel = (badge: BadgeRow) => badge.thresholds.length;

/** Ties an award to what earned it (a post), so that undoing it soon after takes the award back. */
export interface AwardSubject {
  subjectId?: string;
}

/** The rules of experience: daily ceilings per reason (XP per user per UTC day), and the take-back window. */
export interface ExperienceLimits {
  dailyCeilings: ReadonlyMap<string, number>;
  takeBackWithinHours: number;
}

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** The title a level holds: the highest active title whose bucket is not above the level's. */
export function titleForLevel(level: number, activeTitles: TitleRow[]): TitleRow | null {
  const bucket = titleBucketOf(level);
  return activeTitles.filter((title) => title.rankIndex <= bucket).at(-1) ?? null;
}

export interface GamificationServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: GamificationRepository;
  users: UsersService;
  clock: Clock;
  limits: ExperienceLimits;
}

export class GamificationService {
  readonly #deps: GamificationServiceDeps;

  constructor(deps: GamificationServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Adds experience in the transaction in progress (or a new one): the user is locked first, then
   * notified. A reason with a daily ceiling adds at most what is left of it today (counted in the
   * ledger under the user's lock, so parallel awards cannot pass it); an award with a subject is
   * written to the ledger so `takeBack` can return it.
   */
  async awardExperience(
    userId: string,
    amount: number,
    reason: string,
    { subjectId }: AwardSubject = {},
  ): Promise<ExperienceAward> {
    if (!Number.isSafeInteger(amount) || amount < 1) {
      throw new AppError('validationFailed', {
        detail: 'amount must be a positive integer',
        source: { pointer: '/amount' },
      });
    }
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.users.lock(userId);
      if (user === null) throw new AppError('notFound', { detail: 'unknown user' });
      const now = this.#deps.clock.now();
      const ceiling = this.#deps.limits.dailyCeilings.get(reason);
      const usedToday =
        ceiling === undefined ? 0 : await this.#deps.repository.awardedSince(userId, reason, startOfUtcDay(now));
      const granted = ceiling === undefined ? amount : Math.max(0, Math.min(amount, ceiling - usedToday));
      if (granted === 0) {
        return {
          granted,
          experience: user.experience,
          previousLevel: user.level,
          level: user.level,
          titlesReached: [],
          reason,
        };
      }
      if (ceiling !== undefined || subjectId !== undefined) {
        await this.#deps.repository.recordAward({
          id: newId(),
          userId,
          reason,
          subjectId: subjectId ?? null,
          amount: granted,
          awardedAt: now,
        });
      }
      const experience = user.experience + granted;
      const previousLevel = user.level;
      const level = Math.max(previousLevel, levelForExperience(experience));
      await this.#deps.users.setProgress(userId, experience, level);
      for (let reached = previousLevel + 1; reached <= level; reached++) {
        await this.#deps.events.publish('user.levelReached', {
          userId,
          level: reached,
          previousLevel: reached - 1,
          experience,
        });
      }
      const titlesReached = await this.#titlesCrossed(userId, previousLevel, level);
      return { granted, experience, previousLevel, level, titlesReached, reason };
    });
  }

  /**
   * Takes back what a subject earned (a post's publish reward and the badge rewards it brought) when
   * it is undone within `takeBackWithinHours` of the award: experience goes down by that much (never
   * below 0); the level and badge levels stay (they never go down). Returns what was taken back.
   */
  async takeBack(userId: string, subjectId: string, reason: string): Promise<number> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.users.lock(userId);
      if (user === null) return 0;
      const { net, firstAwardedAt } = await this.#deps.repository.subjectBalance(userId, subjectId);
      const now = this.#deps.clock.now();
      if (net <= 0 || firstAwardedAt === null) return 0;
      if (now.getTime() - firstAwardedAt.getTime() >= this.#deps.limits.takeBackWithinHours * 3_600_000) return 0;
      await this.#deps.repository.recordAward({ id: newId(), userId, reason, subjectId, amount: -net, awardedAt: now });
      await this.#deps.users.setProgress(userId, Math.max(0, user.experience - net), user.level);
      return net;
    });
  }

  /** One user.title.up per bucket crossed, capped at the highest active title. */
  async #titlesCrossed(userId: string, previousLevel: number, level: number): Promise<string[]> {
    if (titleBucketOf(level) === titleBucketOf(previousLevel)) return [];
    const active = await this.#deps.repository.activeTitles();
    const from = titleForLevel(previousLevel, active)?.rankIndex ?? -1;
    const to = titleForLevel(level, active)?.rankIndex ?? -1;
    const crossed = active.filter((title) => title.rankIndex > from && title.rankIndex <= to);
    for (const title of crossed) {
      await this.#deps.events.publish('user.titleReached', {
        userId,
        level: Math.max(title.rankIndex * titleBucketSize, previousLevel + 1),
        titleSlug: title.slug,
        titleLabel: title.label,
        rankIndex: title.rankIndex,
        displayTitle: this.#displayTitle(title),
      });
    }
    return crossed.map((title) => title.slug);
  }

  /** Frozen in the default locale: users have no locale attribute. */
  #displayTitle(title: TitleRow): string {
    const key = `gamification.titles.${title.slug}`;
    return hasMessage(key, defaultLocale) ? translate(defaultLocale, key) : title.label;
  }

  /** Raises a badge to `level` (never lowers it): one badge.earned per level crossed, plus their xpReward. */
  awardBadgeLevel(userId: string, slug: string, level: number, subject: AwardSubject = {}): Promise<BadgeAward> {
    return this.#deps.transactions.run(async () => {
      const repository = this.#deps.repository;
      const badge = await repository.badgeBySlug(slug);
      if (badge === null) throw new AppError('notFound', { detail: `unknown badge ${slug}` });
      const maxLevel = badgeMaxLevel(badge);
      if (!Number.isSafeInteger(level) || level < 1 || level > maxLevel) {
        throw new AppError('validationFailed', {
          detail: `level must be from 1 to ${maxLevel}`,
          source: { pointer: '/level' },
        });
      }
      if ((await this.#deps.users.lock(userId)) === null) throw new AppError('notFound', { detail: 'unknown user' });
      const previousLevel = await repository.badgeLevel(userId, badge.id);
      if (level <= previousLevel) return { badgeSlug: slug, previousLevel, level: previousLevel, experience: null };
      await repository.setBadgeLevel(userId, badge.id, level, this.#deps.clock.now());
      let reward = 0;
      for (let reached = previousLevel + 1; reached <= level; reached++) {
        const xpReward = badge.xpRewards[reached - 1] ?? 0;
        reward += xpReward;
        await this.#deps.events.publish('badge.earned', {
          userId,
          badgeId: badge.id,
          badgeSlug: badge.slug,
          level: reached,
          maxLevel,
          label: badge.label,
          icon: badge.icon,
          xpReward,
        });
      }
      const experience = reward > 0 ? await this.awardExperience(userId, reward, `badge.${slug}`, subject) : null;
      return { badgeSlug: slug, previousLevel, level, experience };
    });
  }

  /** A metric's new value for a user (followers, photosPublished…): raises every active badge measuring it. */
  async recordMetric(userId: string, metric: string, value: number, subject: AwardSubject = {}): Promise<BadgeAward[]> {
    const awards: BadgeAward[] = [];
    for (const badge of await this.#deps.repository.badgesMeasuring(metric)) {
      const award = await this.recordBadgeProgress(userId, badge.slug, value, subject);
      if (award !== null) awards.push(award);
    }
    return awards;
  }

  /** For counters (followers, photos published...): awards the badge level that `value` reaches, if higher. */
  async recordBadgeProgress(
    userId: string,
    slug: string,
    value: number,
    subject: AwardSubject = {},
  ): Promise<BadgeAward | null> {
    const badge = await this.#deps.repository.badgeBySlug(slug);
    if (badge === null) return null;
    const level = badge.thresholds.filter((threshold) => value >= threshold).length;
    return level === 0 ? null : this.awardBadgeLevel(userId, slug, level, subject);
  }

  /** The last level of a badge, or null when no badge has this slug (coupons check their rewards with it). */
  async badgeLastLevel(slug: string): Promise<number | null> {
    const badge = await this.#deps.repository.badgeBySlug(slug);
    return badge === null ? null : badgeMaxLevel(badge);
  }

  listBadges(page: PageRequest) {
    return this.#deps.repository.listBadges(page);
  }

  earnedBadges(userId: string, page: PageRequest) {
    return this.#deps.repository.earnedBadges(userId, page);
  }

  /**
   * Level, experience and title of a user, for profiles; null when the user does not exist or is hidden
   * from the viewer (banned, being deleted, a block between them).
   */
  async progress(userId: string, viewerId: string | null = null) {
    const user = await this.#deps.users.findVisibleTo(userId, viewerId);
    if (user === null) return null;
    const title = titleForLevel(user.level, await this.#deps.repository.activeTitles());
    return { experience: user.experience, level: user.level, title };
  }
}
