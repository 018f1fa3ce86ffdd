/** All SQL of follows: the relationship rows and keyset pages of users on either side. */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { keyset, type PageRequest } from '../../platform/http/pagination.ts';
import { type UserRow, users } from '../accounts/tables.ts';
import { type FollowRow, followRewards, follows } from './tables.ts';

export interface FollowedUser {
  user: UserRow;
  followedAt: Date;
}

export class FollowsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  on(db: Db): FollowsRepository {
    return new FollowsRepository(db);
  }

  async findUser(id: string): Promise<UserRow | null> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row ?? null;
  }

  /** false when the pair already follows. */
  async insert(followerId: string, followeeId: string, at: Date): Promise<boolean> {
    const inserted = await this.db
      .insert(follows)
      .values({ followerId, followeeId, createdAt: at })
      .onConflictDoNothing()
      .returning({ followerId: follows.followerId });
    return inserted.length > 0;
  }

  /** true the first time this pair ever follows. */
  async markRewarded(followerId: string, followeeId: string): Promise<boolean> {
    const inserted = await this.db
      .insert(followRewards)
      .values({ followerId, followeeId })
      .onConflictDoNothing()
      .returning({ followerId: followRewards.followerId });
    return inserted.length > 0;
  }

  async delete(followerId: string, followeeId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
      .returning({ followerId: follows.followerId });
    return deleted.length > 0;
  }

  async find(followerId: string, followeeId: string): Promise<FollowRow | null> {
    const [row] = await this.db
      .select()
      .from(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)));
    return row ?? null;
  }

  async followersCount(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<number>`count(*)::int` })
      .from(follows)
      .where(eq(follows.followeeId, userId));
    return row?.total ?? 0;
  }

  /** Users that `userId` follows, newest follow first. */
  async following(userId: string, page: PageRequest): Promise<FollowedUser[]> {
    const { where, orderBy } = keyset([follows.createdAt, follows.followeeId], page);
    return this.db
      .select({ user: users, followedAt: follows.createdAt })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followeeId))
      .where(and(eq(follows.followerId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** Users that follow `userId`, newest follow first. */
  async followers(userId: string, page: PageRequest): Promise<FollowedUser[]> {
    const { where, orderBy } = keyset([follows.createdAt, follows.followerId], page);
    return this.db
      .select({ user: users, followedAt: follows.createdAt })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followerId))
      .where(and(eq(follows.followeeId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }
}
