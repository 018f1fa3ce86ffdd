/** All SQL of blocks and mutes (user_blocks, user_mutes): the rows, my keyset lists, the viewer's hidden ids. */
import { and, eq, gt, isNotNull, lte, or, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import {
  blockedEitherWay,
  domainCoveredBy,
  type PublicUserRow,
  publicUserColumns,
  remoteDomainOf,
  visibleUser,
} from './read-model.ts';
import { type UserBlockRow, type UserMuteRow, userBlocks, userDomainBlocks, userMutes, users } from './tables.ts';

/** A blocked user in my list, and since when. */
export interface BlockedUser {
  user: PublicUserRow;
  createdAt: Date;
}

/** A muted user in my list, with the mute's terms. */
export interface MutedUser {
  user: PublicUserRow;
  createdAt: Date;
  notifications: boolean;
  expiresAt: Date | null;
}

/** My blocks, newest first. */
export const blocksKeyset = defineKeyset<BlockedUser>({
  name: 'blocks',
  shape: ['timestamp', 'uuid'],
  columns: [userBlocks.createdAt, userBlocks.blockedId],
  keyOf: (row) => [row.createdAt, row.user.id],
});

/** My mutes, newest first. */
export const mutesKeyset = defineKeyset<MutedUser>({
  name: 'mutes',
  shape: ['timestamp', 'uuid'],
  columns: [userMutes.createdAt, userMutes.mutedId],
  keyOf: (row) => [row.createdAt, row.user.id],
});

/** What a mute says: whether notifications stop too, and when it ends (null: when unmuted). */
export interface MuteTerms {
  notifications: boolean;
  expiresAt: Date | null;
}

export class RelationsRepository extends Repository {
  /** false when the block was there already. */
  async insertBlock(blockerId: string, blockedId: string, at: Date): Promise<boolean> {
    const inserted = await this.db
      .insert(userBlocks)
      .values({ blockerId, blockedId, createdAt: at })
      .onConflictDoNothing()
      .returning({ blockerId: userBlocks.blockerId });
    return inserted.length > 0;
  }

  async deleteBlock(blockerId: string, blockedId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(userBlocks)
      .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)))
      .returning({ blockerId: userBlocks.blockerId });
    return deleted.length > 0;
  }

  async findBlock(blockerId: string, blockedId: string): Promise<UserBlockRow | null> {
    const [row] = await this.db
      .select()
      .from(userBlocks)
      .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)));
    return row ?? null;
  }

  /** Whether either of the two blocks the other, or the other's domain (read-model.ts `shownTo`, for one pair). */
  async blockedEitherWay(a: string, b: string): Promise<boolean> {
    const [row] = await queryRows<{ blocked: boolean }>(
      this.db,
      sql`SELECT ${blockedEitherWay(a, sql`${b}::uuid`)} OR ${blockedEitherWay(b, sql`${a}::uuid`)} AS blocked`,
    );
    return row?.blocked === true;
  }

  /** Inserts or replaces the mute's terms (a mute again renews it); the row as it is now. */
  async upsertMute(muterId: string, mutedId: string, terms: MuteTerms, at: Date): Promise<UserMuteRow> {
    const [row] = await this.db
      .insert(userMutes)
      .values({ muterId, mutedId, ...terms, createdAt: at })
      .onConflictDoUpdate({
        target: [userMutes.muterId, userMutes.mutedId],
        set: { notifications: terms.notifications, expiresAt: terms.expiresAt },
      })
      .returning();
    if (row === undefined) throw new Error('user_mutes upsert returned no row');
    return row;
  }

  async deleteMute(muterId: string, mutedId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(userMutes)
      .where(and(eq(userMutes.muterId, muterId), eq(userMutes.mutedId, mutedId)))
      .returning({ muterId: userMutes.muterId });
    return deleted.length > 0;
  }

  /** The muter's mutes whose end has passed (the rule ignores them already; each mute write tidies them). */
  async deleteExpiredMutes(muterId: string, at: Date): Promise<number> {
    const deleted = await this.db
      .delete(userMutes)
      .where(and(eq(userMutes.muterId, muterId), isNotNull(userMutes.expiresAt), lte(userMutes.expiresAt, at)))
      .returning({ muterId: userMutes.muterId });
    return deleted.length;
  }

  /** My blocks, newest first (accounts hidden to everyone left out, as in every list of users). */
  async blocks(blockerId: string, page: PageRequest): Promise<BlockedUser[]> {
    const { where, orderBy } = keyset(blocksKeyset, page);
    return this.db
      .select({ user: publicUserColumns, createdAt: userBlocks.createdAt })
      .from(userBlocks)
      .innerJoin(users, eq(users.id, userBlocks.blockedId))
      .where(and(eq(userBlocks.blockerId, blockerId), visibleUser(), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** My mutes in force at `at`, newest first. */
  async mutes(muterId: string, at: Date, page: PageRequest): Promise<MutedUser[]> {
    const { where, orderBy } = keyset(mutesKeyset, page);
    return this.db
      .select({
        user: publicUserColumns,
        createdAt: userMutes.createdAt,
        notifications: userMutes.notifications,
        expiresAt: userMutes.expiresAt,
      })
      .from(userMutes)
      .innerJoin(users, eq(users.id, userMutes.mutedId))
      .where(
        and(
          eq(userMutes.muterId, muterId),
          or(sql`${userMutes.expiresAt} IS NULL`, gt(userMutes.expiresAt, at)),
          visibleUser(),
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /**
   * The users hidden from the viewer (read-model.ts `shownTo`, in memory): blocked either way, and with
   * `mutes`, muted by the viewer at `at` (only those stopping notifications when `mutes` says so).
   */
  async hiddenFrom(viewerId: string, mutes: 'none' | 'content' | 'notifications', at: Date): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`SELECT ${userBlocks.blockedId} AS id FROM ${userBlocks} WHERE ${userBlocks.blockerId} = ${viewerId}
          UNION SELECT ${userBlocks.blockerId} FROM ${userBlocks} WHERE ${userBlocks.blockedId} = ${viewerId}
          UNION SELECT ${users.id} FROM ${userDomainBlocks} JOIN ${users} ON ${users.remoteHandle} IS NOT NULL
            AND ${domainCoveredBy(remoteDomainOf(users.remoteHandle), userDomainBlocks.domain)}
            WHERE ${userDomainBlocks.userId} = ${viewerId}
          ${
            mutes === 'none'
              ? sql``
              : sql`UNION SELECT ${userMutes.mutedId} FROM ${userMutes} WHERE ${userMutes.muterId} = ${viewerId}
                  AND (${userMutes.expiresAt} IS NULL OR ${userMutes.expiresAt} > ${at})
                  ${mutes === 'notifications' ? sql`AND ${userMutes.notifications}` : sql``}`
          }`,
    );
    return rows.map((row) => row.id);
  }

  /** The data export: the blocks the user made, keyed by the blocked user. */
  async exportBlocks(userId: string, after: string | null, limit: number): Promise<UserBlockRow[]> {
    return this.db
      .select()
      .from(userBlocks)
      .where(and(eq(userBlocks.blockerId, userId), after === null ? undefined : gt(userBlocks.blockedId, after)))
      .orderBy(userBlocks.blockedId)
      .limit(limit);
  }

  /** The data export: the mutes the user made, keyed by the muted user. */
  async exportMutes(userId: string, after: string | null, limit: number): Promise<UserMuteRow[]> {
    return this.db
      .select()
      .from(userMutes)
      .where(and(eq(userMutes.muterId, userId), after === null ? undefined : gt(userMutes.mutedId, after)))
      .orderBy(userMutes.mutedId)
      .limit(limit);
  }

  /** An erased account (`user.erasing`): its blocks and mutes, both ways, and its domain blocks. */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(userDomainBlocks).where(eq(userDomainBlocks.userId, userId));
    await this.db.delete(userBlocks).where(or(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, userId)));
    await this.db.delete(userMutes).where(or(eq(userMutes.muterId, userId), eq(userMutes.mutedId, userId)));
  }
}
