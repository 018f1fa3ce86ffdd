/** All SQL of gamification: the badge and title catalogues, users' badges, experience and level. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { keyset, type PageRequest } from '../../platform/http/pagination.ts';
import { users } from '../accounts/tables.ts';
import { type BadgeRow, badges, type TitleRow, titles, userBadges } from './tables.ts';

export interface EarnedBadgeRow {
  badge: BadgeRow;
  level: number;
  earnedAt: Date;
  updatedAt: Date;
}

/** Catalogue order as a descending key, since keyset pages run newest (largest) first. */
const badgeOrder = sql`(-${badges.position})`;

export class GamificationRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  on(db: Db | undefined): GamificationRepository {
    return db === undefined || db === this.db ? this : new GamificationRepository(db);
  }

  /** Locks the user's row for the rest of the transaction; null when the user does not exist. */
  async lockUser(userId: string): Promise<{ experience: number; level: number } | null> {
    const [row] = await this.db
      .select({ experience: users.experience, level: users.level })
      .from(users)
      .where(eq(users.id, userId))
      .for('no key update');
    return row ?? null;
  }

  async setExperience(userId: string, experience: number, level: number, at: Date): Promise<void> {
    await this.db.update(users).set({ experience, level, updatedAt: at }).where(eq(users.id, userId));
  }

  async userProgress(userId: string): Promise<{ experience: number; level: number } | null> {
    const [row] = await this.db
      .select({ experience: users.experience, level: users.level })
      .from(users)
      .where(eq(users.id, userId));
    return row ?? null;
  }

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

  async listBadges(page: PageRequest): Promise<BadgeRow[]> {
    const { where, orderBy } = keyset([badgeOrder, badges.id], page);
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
    const { where, orderBy } = keyset([userBadges.updatedAt, userBadges.badgeId], page);
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
}
