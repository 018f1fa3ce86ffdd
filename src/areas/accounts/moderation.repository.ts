/** SQL of user moderation: the operators' user list, bans that ended, what an erasure deletes. */
import { and, type Column, eq, gt, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import { likePrefix } from '../../platform/db/like.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { sessions, type UserRow, users, userTokens } from './tables.ts';

/** GET /admin/users: every account, newest first. */
export const adminUsersKeyset = newestFirst<UserRow>('adminUsers', users);

export interface AdminUserFilter {
  /** Part of the e-mail, username or nickname, case-insensitive (LIKE metacharacters taken as themselves). */
  q?: string;
  banned?: boolean;
  verified?: boolean;
  /** true: e-mail not confirmed yet; false: confirmed. */
  unconfirmed?: boolean;
}

const contains = (column: SQL, needle: string): SQL =>
  sql`lower(${column}) LIKE '%' || ${likePrefix(sql`lower(${needle})`)}`;

const yesNo = (flag: boolean | undefined, column: Column): SQL | undefined =>
  flag === undefined ? undefined : flag ? isNotNull(column) : isNull(column);

export class ModerationRepository extends Repository {
  async list(filter: AdminUserFilter, page: PageRequest): Promise<UserRow[]> {
    const { where, orderBy } = keyset(adminUsersKeyset, page);
    const q = filter.q?.trim();
    const search = q
      ? sql`(${contains(sql`${users.email}::text`, q)} OR ${contains(sql`${users.username}::text`, q)}
             OR ${contains(sql`${users.nickname}`, q)})`
      : undefined;
    return this.db
      .select()
      .from(users)
      .where(
        and(
          search,
          yesNo(filter.banned, users.bannedAt),
          yesNo(filter.verified, users.verifiedAt),
          filter.unconfirmed === undefined ? undefined : yesNo(!filter.unconfirmed, users.emailConfirmedAt),
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** Users whose ban ended by `now` (at most `limit`, the earliest first). */
  async endedBans(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(isNotNull(users.bannedAt), lte(users.bannedUntil, now), isNull(users.anonymizedAt)))
      .orderBy(users.bannedUntil)
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async countLiveSessions(userId: string, now: Date): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)));
    return row?.count ?? 0;
  }

  /** Every single-use token of the user (an erasure leaves no link that could act on the account). */
  async deleteTokensOfUser(userId: string): Promise<void> {
    await this.db.delete(userTokens).where(eq(userTokens.userId, userId));
  }
}
