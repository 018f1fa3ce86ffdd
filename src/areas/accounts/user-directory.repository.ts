/** SQL for lists of other users: name search (pg_trgm) and the accounts a sponsor brought in. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { defineKeyset, keyset, newestFirst, type PageRequest } from '../../platform/http/pagination.ts';
import { type UserRow, users } from './tables.ts';

/** `%` and `_` are wildcards in LIKE; a query for "a_b" must match the underscore itself. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Search results, best score first; the score column is the query's own (see search), so it is given there. */
export const userSearchKeyset = defineKeyset<{ score: number; user: UserRow }>({
  name: 'user-search',
  shape: ['number', 'uuid'],
  columns: [],
  keyOf: (row) => [row.score, row.user.id],
});

/** The accounts a sponsor brought in, newest first. */
export const sponsoredKeyset = newestFirst<UserRow>('sponsored', users);

export class UserDirectoryRepository extends Repository {
  /**
   * Users whose username or nickname starts with, resembles (trigram similarity) or contains a word
   * resembling the query, best first. Score: exact username 3, username prefix 2 + similarity,
   * exact nickname 2.5, nickname prefix 1.5 + similarity, otherwise the best word similarity (< 1).
   * Rounded to 6 digits as float8 so the keyset cursor round-trips exactly.
   */
  async search(query: string, page: PageRequest): Promise<Array<{ user: UserRow; score: number }>> {
    const q = query.toLowerCase();
    const prefix = `${escapeLike(q)}%`;
    const name = sql`lower(${users.username}::text)`;
    const nick = sql`lower(${users.nickname})`;
    const score = sql<number>`round(greatest(
      coalesce(case when ${name} = ${q} then 3 when ${name} like ${prefix} then 2 + similarity(${name}, ${q}) else word_similarity(${q}, ${name}) end, 0),
      coalesce(case when ${nick} = ${q} then 2.5 when ${nick} like ${prefix} then 1.5 + similarity(${nick}, ${q}) else word_similarity(${q}, ${nick}) end, 0)
    )::numeric, 6)::float8`;
    const matches = sql`(${name} like ${prefix} or ${nick} like ${prefix} or ${name} % ${q} or ${q} <% ${name} or ${q} <% ${nick})`;
    const { where, orderBy } = keyset({ columns: [score, users.id] }, page);
    return this.db
      .select({ user: users, score })
      .from(users)
      .where(
        and(
          matches,
          isNull(users.bannedAt),
          isNull(users.anonymizedAt),
          sql`coalesce((${users.settings} ->> 'discoverable')::boolean, true)`,
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** Accounts registered with this sponsor's code, newest first (deleted accounts left out). */
  async sponsored(sponsorId: string, page: PageRequest): Promise<UserRow[]> {
    const { where, orderBy } = keyset(sponsoredKeyset, page);
    return this.db
      .select()
      .from(users)
      .where(and(eq(users.sponsoredBy, sponsorId), isNull(users.anonymizedAt), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async countSponsored(sponsorId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.sponsoredBy, sponsorId), isNull(users.anonymizedAt)));
    return row?.count ?? 0;
  }
}
