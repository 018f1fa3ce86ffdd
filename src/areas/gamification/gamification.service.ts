/**
 * Experience, levels, titles and badges. Other areas call awardExperience, awardBadgeLevel and
 * recordBadgeProgress (optionally inside their own transaction, `db`); each level crossed writes one
 * notification in the same transaction as the update, so a rollback removes them together.
 */
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { PageRequest } from '../../platform/http/pagination.ts';
import { defaultLocale, hasMessage, translate } from '../../platform/i18n/i18n.ts';
import type { NotificationDispatcher } from '../notifications/dispatch.service.ts';
import { dedupKeys } from '../notifications/kinds.ts';
import type { GamificationRepository } from './gamification.repository.ts';
import { levelForExperience, titleBucketOf, titleBucketSize } from './level-curve.ts';
import type { BadgeRow, TitleRow } from './tables.ts';

export interface ExperienceAward {
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

/** The title a level holds: the highest active title whose bucket is not above the level's. */
export function titleForLevel(level: number, activeTitles: TitleRow[]): TitleRow | null {
  const bucket = titleBucketOf(level);
  return activeTitles.filter((title) => title.rankIndex <= bucket).at(-1) ?? null;
}

export class GamificationService {
  private readonly db: Db;
  private readonly repository: GamificationRepository;
  private readonly dispatcher: NotificationDispatcher;
  private readonly clock: Clock;

  constructor(db: Db, repository: GamificationRepository, dispatcher: NotificationDispatcher, clock: Clock) {
    this.db = db;
    this.repository = repository;
    this.dispatcher = dispatcher;
    this.clock = clock;
  }

  /** Runs fn in the caller's transaction, or in a new one. */
  #inTransaction<T>(db: Db | undefined, fn: (db: Db) => Promise<T>): Promise<T> {
    return db === undefined ? this.db.transaction((tx) => fn(tx as unknown as Db)) : fn(db);
  }

  async awardExperience(userId: string, amount: number, reason: string, db?: Db): Promise<ExperienceAward> {
    if (!Number.isSafeInteger(amount) || amount < 1) {
      throw new AppError('validationFailed', {
        detail: 'amount must be a positive integer',
        source: { pointer: '/amount' },
      });
    }
    return this.#inTransaction(db, async (tx) => {
      const repository = this.repository.on(tx);
      const user = await repository.lockUser(userId);
      if (user === null) throw new AppError('notFound', { detail: 'unknown user' });
      const experience = user.experience + amount;
      const previousLevel = user.level;
      const level = Math.max(previousLevel, levelForExperience(experience));
      await repository.setExperience(userId, experience, level, this.clock.now());
      for (let reached = previousLevel + 1; reached <= level; reached++) {
        await this.dispatcher.dispatch(
          userId,
          'user.level.up',
          { level: reached, previousLevel: reached - 1, experience },
          dedupKeys.levelUp(userId, reached),
          tx,
        );
      }
      const titlesReached = await this.#titlesCrossed(userId, previousLevel, level, tx);
      return { experience, previousLevel, level, titlesReached, reason };
    });
  }

  /** One user.title.up per bucket crossed, capped at the highest active title. */
  async #titlesCrossed(userId: string, previousLevel: number, level: number, tx: Db): Promise<string[]> {
    if (titleBucketOf(level) === titleBucketOf(previousLevel)) return [];
    const active = await this.repository.on(tx).activeTitles();
    const from = titleForLevel(previousLevel, active)?.rankIndex ?? -1;
    const to = titleForLevel(level, active)?.rankIndex ?? -1;
    const crossed = active.filter((title) => title.rankIndex > from && title.rankIndex <= to);
    for (const title of crossed) {
      await this.dispatcher.dispatch(
        userId,
        'user.title.up',
        {
          level: Math.max(title.rankIndex * titleBucketSize, previousLevel + 1),
          titleSlug: title.slug,
          titleLabel: title.label,
          rankIndex: title.rankIndex,
          displayTitle: this.#displayTitle(title),
        },
        dedupKeys.titleUp(userId, title.slug),
        tx,
      );
    }
    return crossed.map((title) => title.slug);
  }

  /** Frozen in the default locale: users have no locale attribute. */
  #displayTitle(title: TitleRow): string {
    const key = `gamification.titles.${title.slug}`;
    return hasMessage(key, defaultLocale) ? translate(defaultLocale, key) : title.label;
  }

  /** Raises a badge to `level` (never lowers it): one badge.earned per level crossed, plus their xpReward. */
  awardBadgeLevel(userId: string, slug: string, level: number, db?: Db): Promise<BadgeAward> {
    return this.#inTransaction(db, async (tx) => {
      const repository = this.repository.on(tx);
      const badge = await repository.badgeBySlug(slug);
      if (badge === null) throw new AppError('notFound', { detail: `unknown badge ${slug}` });
      const maxLevel = badgeMaxLevel(badge);
      if (!Number.isSafeInteger(level) || level < 1 || level > maxLevel) {
        throw new AppError('validationFailed', {
          detail: `level must be from 1 to ${maxLevel}`,
          source: { pointer: '/level' },
        });
      }
      if ((await repository.lockUser(userId)) === null) throw new AppError('notFound', { detail: 'unknown user' });
      const previousLevel = await repository.badgeLevel(userId, badge.id);
      if (level <= previousLevel) return { badgeSlug: slug, previousLevel, level: previousLevel, experience: null };
      await repository.setBadgeLevel(userId, badge.id, level, this.clock.now());
      let reward = 0;
      for (let reached = previousLevel + 1; reached <= level; reached++) {
        const xpReward = badge.xpRewards[reached - 1] ?? 0;
        reward += xpReward;
        await this.dispatcher.dispatch(
          userId,
          'badge.earned',
          {
            badgeId: badge.id,
            badgeSlug: badge.slug,
            level: reached,
            maxLevel,
            label: badge.label,
            icon: badge.icon,
            xpReward,
          },
          dedupKeys.badgeEarned(badge.id, reached),
          tx,
        );
      }
      const experience = reward > 0 ? await this.awardExperience(userId, reward, `badge.${slug}`, tx) : null;
      return { badgeSlug: slug, previousLevel, level, experience };
    });
  }

  /** For counters (followers, photos published...): awards the badge level that `value` reaches, if higher. */
  async recordBadgeProgress(userId: string, slug: string, value: number, db?: Db): Promise<BadgeAward | null> {
    const badge = await this.repository.on(db).badgeBySlug(slug);
    if (badge === null) return null;
    const level = badge.thresholds.filter((threshold) => value >= threshold).length;
    return level === 0 ? null : this.awardBadgeLevel(userId, slug, level, db);
  }

  listBadges(page: PageRequest) {
    return this.repository.listBadges(page);
  }

  earnedBadges(userId: string, page: PageRequest) {
    return this.repository.earnedBadges(userId, page);
  }

  /** Level, experience and title of a user, for profiles; null when the user does not exist. */
  async progress(userId: string) {
    const progress = await this.repository.userProgress(userId);
    if (progress === null) return null;
    const title = titleForLevel(progress.level, await this.repository.activeTitles());
    return { ...progress, title };
  }
}
