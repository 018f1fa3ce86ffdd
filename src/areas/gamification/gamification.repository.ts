/** All SQL of gamification: the badge and title catalogues and users' badges (experience and level live on users, through accounts). */
import { and, asc, eq, gt, gte, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import {
  type BadgeRow,
  badges,
  type ExperienceAwardRow,
  experienceAwards,
  type TitleRow,
  titles,
  userBadges,
} from './tables.ts';

export interface EarnedBadgeRow {
  badge: BadgeRow;
  level: number;
  earnedAt: Date;
  updatedAt: Date;
}

/** Catalogue order as a descending key, since keyset pages run newest (largest) first. */
const badgeOrder = sql`(-${badges.position})`;

/** The catalogue, in catalogue order. */
export const badgesKeyset = defineKeyset<BadgeRow>({
  name: 'badges',
  shape: ['int', 'uuid'],
  columns: [badgeOrder, badges.id],
  keyOf: (badge) => [-badge.position, badge.id],
});

/** A user's badges, most recently raised first. */
export const earnedBadgesKeyset = defineKeyset<EarnedBadgeRow>({
  name: 'earned-badges',
  shape: ['timestamp', 'uuid'],
  columns: [userBadges.updatedAt, userBadges.badgeId],
  keyOf: (row) => [row.updatedAt, row.badge.id],
});

export class GamificationRepository extends Repository {
  async activeTitles(): Promise<TitleRow[]> {
    return this.db.select().from(titles).where(eq(titles.active, true)).orderBy(asc(titles.rankIndex));
  }

  async badgeBySlug(slug: string): Promise<BadgeRow | null> {
    const [row] = await this.db
      .select()
      .from(badges)
      .where(and(eq(badges.slug, slug), eq(badges.active, true)));
    return row ?? null;
  }

  /** Active badges whose thresholds count `metric`, in catalogue order. */
  async badgesMeasuring(metric: string): Promise<BadgeRow[]> {
    return this.db
      .select()
      .from(badges)
      .where(and(eq(badges.metric, metric), eq(badges.active, true)))
      .orderBy(asc(badges.position));
  }

  async listBadges(page: PageRequest): Promise<BadgeRow[]> {
    const { where, orderBy } = keyset(badgesKeyset, page);
    return this.db
      .select()
      .from(badges)
      .where(and(eq(badges.active, true), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async badgeLevel(userId: string, badgeId: string): Promise<number> {
    const [row] = await this.db
      .select({ level: userBadges.level })
      .from(userBadges)
      .where(and(eq(userBadges.userId, userId), eq(userBadges.badgeId, badgeId)));
    return row?.level ?? 0;
  }

  async setBadgeLevel(userId: string, badgeId: string, level: number, at: Date): Promise<void> {
    await this.db
      .insert(userBadges)
      .values({ userId, badgeId, level, earnedAt: at, updatedAt: at })
      .onConflictDoUpdate({ target: [userBadges.userId, userBadges.badgeId], set: { level, updatedAt: at } });
  }

  async earnedBadges(userId: string, page: PageRequest): Promise<EarnedBadgeRow[]> {
    const { where, orderBy } = keyset(earnedBadgesKeyset, page);
    const rows = await this.db
      .select({
        badge: badges,
        level: userBadges.level,
        earnedAt: userBadges.earnedAt,
        updatedAt: userBadges.updatedAt,
      })
      .from(userBadges)
      .innerJoin(badges, eq(badges.id, userBadges.badgeId))
      .where(and(eq(userBadges.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
    return rows;
  }

  // ---- the ledger of capped and revocable experience ----

  /**
   * An erased account (`user.erasing`): its badges and experience awards. What others earned through
   * it (a follow, a like) stays theirs: those awards name the erased user nowhere.
   */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(userBadges).where(eq(userBadges.userId, userId));
    await this.db.delete(experienceAwards).where(eq(experienceAwards.userId, userId));
  }

  async recordAward(row: ExperienceAwardRow): Promise<void> {
    await this.db.insert(experienceAwards).values(row);
  }

  /** What the user was awarded for `reason` since `since` (take-backs not deducted: a ceiling counts grants). */
  async awardedSince(userId: string, reason: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<number>`coalesce(sum(${experienceAwards.amount}), 0)::int` })
      .from(experienceAwards)
      .where(
        and(
          eq(experienceAwards.userId, userId),
          eq(experienceAwards.reason, reason),
          gte(experienceAwards.awardedAt, since),
          gt(experienceAwards.amount, 0),
        ),
      );
    return row?.total ?? 0;
  }

  /** What a subject still holds for the user (awards minus take-backs) and when it was first awarded. */
  async subjectBalance(userId: string, subjectId: string): Promise<{ net: number; firstAwardedAt: Date | null }> {
    const [row] = await this.db
      .select({
        net: sql<number>`coalesce(sum(${experienceAwards.amount}), 0)::int`,
        firstAwardedAt: sql<
          string | null
        >`min(${experienceAwards.awardedAt}) FILTER (WHERE ${experienceAwards.amount} > 0)`,
      })
      .from(experienceAwards)
      .where(and(eq(experienceAwards.userId, userId), eq(experienceAwards.subjectId, subjectId)));
    return {
      net: row?.net ?? 0,
      firstAwardedAt: row?.firstAwardedAt == null ? null : new Date(row.firstAwardedAt),
    };
  }

  /** The data export's badges of a user (with each badge's slug and label), in keyset batches by badge id. */
  async exportBadges(userId: string, after: string | null, limit: number) {
    return this.db
      .select({
        badgeId: userBadges.badgeId,
        slug: badges.slug,
        label: badges.label,
        level: userBadges.level,
        earnedAt: userBadges.earnedAt,
        updatedAt: userBadges.updatedAt,
      })
      .from(userBadges)
      .innerJoin(badges, eq(badges.id, userBadges.badgeId))
      .where(and(eq(userBadges.userId, userId), after === null ? undefined : gt(userBadges.badgeId, after)))
      .orderBy(userBadges.badgeId)
      .limit(limit);
  }

  /** The data export's experience awards (and take-backs) of a user, in keyset batches by id. */
  async exportExperience(userId: string, after: string | null, limit: number): Promise<ExperienceAwardRow[]> {
    return this.db
      .select()
      .from(experienceAwards)
      .where(and(eq(experienceAwards.userId, userId), after === null ? undefined : gt(experienceAwards.id, after)))
      .orderBy(experienceAwards.id)
      .limit(limit);
  }
}
