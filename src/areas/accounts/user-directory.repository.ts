/** SQL for lists of other users: the accounts a sponsor brought in (name search lives in the search area). */
import { and, eq, sql } from 'drizzle-orm';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { activeUser, type PublicUserRow, publicUserColumns } from './read-model.ts';
import { users } from './tables.ts';

/** The accounts a sponsor brought in, newest first. */
export const sponsoredKeyset = newestFirst<PublicUserRow>('sponsored', users);

export class UserDirectoryRepository extends Repository {
  /** Accounts registered with this sponsor's code, newest first (erased and hidden accounts left out). */
  async sponsored(sponsorId: string, page: PageRequest): Promise<PublicUserRow[]> {
    const { where, orderBy } = keyset(sponsoredKeyset, page);
    return this.db
      .select(publicUserColumns)
      .from(users)
      .where(and(eq(users.sponsoredBy, sponsorId), activeUser(), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async countSponsored(sponsorId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.sponsoredBy, sponsorId), activeUser()));
    return row?.count ?? 0;
  }
}
