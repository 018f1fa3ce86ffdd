/** All SQL of follows: the relationship rows and keyset pages of users on either side. */
import { and, eq, gt, or, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { unseenByPlans } from '../../platform/db/literals.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { byKey, PreparedPage } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import {
  type PublicUserRow,
  publicUserColumns,
  shownTo,
  userRows as users,
  visibleUser,
} from '../accounts/read-model.ts';
import { type FollowRow, followRewards, follows } from './tables.ts';

/** One side of a follow: the other user and when the follow began. */
export interface FollowedUser {
  user: PublicUserRow;
  followedAt: Date;
}

/** A listed user with the time of the follow (what the follow lists page over). */
type FollowKeyRow = { followedAt: Date; user: { id: string } };

/** Who a user follows, newest follow first. */
export const followingKeyset = defineKeyset<FollowKeyRow>({
  name: 'following',
  shape: ['timestamp', 'uuid'],
  columns: [follows.createdAt, follows.followeeId],
  keyOf: (row) => [row.followedAt, row.user.id],
});

/** Who follows a user, newest follow first. */
export const followersKeyset = defineKeyset<FollowKeyRow>({
  name: 'followers',
  shape: ['timestamp', 'uuid'],
  columns: [follows.createdAt, follows.followerId],
  keyOf: (row) => [row.followedAt, row.user.id],
});

/** The listed user's id in a follow list's statement: hidden from the plans in an anonymous one. */
const listedUser = (who: 'anonymous' | 'viewer') =>
  who === 'anonymous' ? unseenByPlans(sql.placeholder('userId'), 'uuid') : sql.placeholder('userId');

export class FollowsRepository extends Repository {
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

  /** A block between the two (`user.blocked`): the follows both ways; the counts are counted from these rows. */
  async deleteBetween(a: string, b: string): Promise<void> {
    await this.db
      .delete(follows)
      .where(
        or(
          and(eq(follows.followerId, a), eq(follows.followeeId, b)),
          and(eq(follows.followerId, b), eq(follows.followeeId, a)),
        ),
      );
  }

  /**
   * An erased account (`user.erasing`): its follows both ways and their reward marks. The counts of
   * the people it followed or who followed it are counted from these rows, so nothing else moves.
   */
  /** Every follow of the user, both ways (its rewards' ledger kept); how many rows went. */
  async deleteAllOf(userId: string): Promise<number> {
    const deleted = await this.db
      .delete(follows)
      .where(or(eq(follows.followerId, userId), eq(follows.followeeId, userId)))
      .returning({ followerId: follows.followerId });
    return deleted.length;
  }

  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(follows).where(or(eq(follows.followerId, userId), eq(follows.followeeId, userId)));
    await this.db
      .delete(followRewards)
      .where(or(eq(followRewards.followerId, userId), eq(followRewards.followeeId, userId)));
  }

  async find(followerId: string, followeeId: string): Promise<FollowRow | null> {
    const [row] = await this.db
      .select()
      .from(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)));
    return row ?? null;
  }

  async followersCount(userId: string): Promise<number> {
    const [row] = await this.replicaDb
      .select({ total: sql<number>`count(*)::int` })
      .from(follows)
      .where(eq(follows.followeeId, userId));
    return row?.total ?? 0;
  }

  async followingCount(userId: string): Promise<number> {
    const [row] = await this.replicaDb
      .select({ total: sql<number>`count(*)::int` })
      .from(follows)
      .where(eq(follows.followerId, userId));
    return row?.total ?? 0;
  }

  // Each list joins the listed users (accounts' read model): a page is one statement. A signed-in
  // viewer's statement adds the rule of who they may see (shownTo); an anonymous one is unchanged.
  // An anonymous list hides the listed user's id from the plans (listedUser): its page is read in the
  // index's order whoever it is, and PostgreSQL otherwise planned it again at every request. Not a
  // viewer's: there the block rules' estimates make a plan that sorts the user's follows look as
  // cheap, and a custom plan made for a heavy user's statistics is what reads them in order.
  readonly #following = byKey(
    ['anonymous', 'viewer'] as const,
    (who) =>
      new PreparedPage<FollowedUser>(
        // A viewer's blocks are never read from the replica (docs/development.md, Reads from the replica).
        who === 'viewer' ? this.source : this.replicaSource,
        `follows.following.${who}`,
        followingKeyset,
        (db, where, orderBy) =>
          db
            .select({ user: publicUserColumns, followedAt: follows.createdAt })
            .from(follows)
            .innerJoin(users, eq(users.id, follows.followeeId))
            .where(
              and(
                eq(follows.followerId, listedUser(who)),
                visibleUser(),
                shownTo(who === 'viewer' ? sql.placeholder('viewerId') : null, users.id),
                where,
              ),
            )
            .orderBy(...orderBy),
      ),
  );

  readonly #followers = byKey(
    ['anonymous', 'viewer'] as const,
    (who) =>
      new PreparedPage<FollowedUser>(
        // A viewer's blocks are never read from the replica (docs/development.md, Reads from the replica).
        who === 'viewer' ? this.source : this.replicaSource,
        `follows.followers.${who}`,
        followersKeyset,
        (db, where, orderBy) =>
          db
            .select({ user: publicUserColumns, followedAt: follows.createdAt })
            .from(follows)
            .innerJoin(users, eq(users.id, follows.followerId))
            .where(
              and(
                eq(follows.followeeId, listedUser(who)),
                visibleUser(),
                shownTo(who === 'viewer' ? sql.placeholder('viewerId') : null, users.id),
                where,
              ),
            )
            .orderBy(...orderBy),
      ),
  );

  /** Who `userId` follows, newest follow first, as the viewer may see them. */
  following(userId: string, page: PageRequest, viewerId: string | null): Promise<FollowedUser[]> {
    return viewerId === null
      ? this.#following.anonymous.run(page, { userId })
      : this.#following.viewer.run(page, { userId, viewerId });
  }

  /** Who follows `userId`, newest follow first, as the viewer may see them. */
  followers(userId: string, page: PageRequest, viewerId: string | null): Promise<FollowedUser[]> {
    return viewerId === null
      ? this.#followers.anonymous.run(page, { userId })
      : this.#followers.viewer.run(page, { userId, viewerId });
  }

  /** The data export's follows of a user, either way: `following` keyed by followee, `followers` by follower. */
  async exportRows(
    userId: string,
    direction: 'following' | 'followers',
    after: string | null,
    limit: number,
  ): Promise<FollowRow[]> {
    const [self, other] =
      direction === 'following' ? [follows.followerId, follows.followeeId] : [follows.followeeId, follows.followerId];
    return this.db
      .select()
      .from(follows)
      .where(and(eq(self, userId), after === null ? undefined : gt(other, after)))
      .orderBy(other)
      .limit(limit);
  }
}
