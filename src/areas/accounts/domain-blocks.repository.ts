/** All SQL of a user's own domain blocks (user_domain_blocks), and the remote users a domain covers. */
import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { domainCoveredBy, remoteDomainOf } from './read-model.ts';
import { type UserDomainBlockRow, userDomainBlocks, users } from './tables.ts';

/** My domain blocks, newest first. */
export const domainBlocksKeyset = defineKeyset<UserDomainBlockRow>({
  name: 'domain-blocks',
  shape: ['timestamp', 'string'],
  columns: [userDomainBlocks.createdAt, userDomainBlocks.domain],
  keyOf: (row) => [row.createdAt, row.domain],
});

/** A remote (shadow) user on a domain, with its ban's reason (federation lifts the bans its block made). */
export interface RemoteUserOnDomain {
  id: string;
  banReason: string | null;
}

export class DomainBlocksRepository extends Repository {
  /** false when the block was there already. */
  async insert(row: UserDomainBlockRow): Promise<boolean> {
    const inserted = await this.db
      .insert(userDomainBlocks)
      .values(row)
      .onConflictDoNothing()
      .returning({ domain: userDomainBlocks.domain });
    return inserted.length > 0;
  }

  async find(userId: string, domain: string): Promise<UserDomainBlockRow | null> {
    const [row] = await this.db
      .select()
      .from(userDomainBlocks)
      .where(and(eq(userDomainBlocks.userId, userId), eq(userDomainBlocks.domain, domain)));
    return row ?? null;
  }

  async delete(userId: string, domain: string): Promise<void> {
    await this.db
      .delete(userDomainBlocks)
      .where(and(eq(userDomainBlocks.userId, userId), eq(userDomainBlocks.domain, domain)));
  }

  async list(userId: string, page: PageRequest): Promise<UserDomainBlockRow[]> {
    const { where, orderBy } = keyset(domainBlocksKeyset, page);
    return this.db
      .select()
      .from(userDomainBlocks)
      .where(and(eq(userDomainBlocks.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** The remote users of `domain` and its subdomains, in id order. */
  async remoteUsersOn(domain: string): Promise<RemoteUserOnDomain[]> {
    return this.db
      .select({ id: users.id, banReason: users.banReason })
      .from(users)
      .where(and(isNotNull(users.remoteHandle), domainCoveredBy(remoteDomainOf(users.remoteHandle), sql`${domain}`)))
      .orderBy(asc(users.id));
  }

  /** The data export: the user's domain blocks, keyed by domain. */
  async exportRows(userId: string, after: string | null, limit: number): Promise<UserDomainBlockRow[]> {
    return this.db
      .select()
      .from(userDomainBlocks)
      .where(and(eq(userDomainBlocks.userId, userId), after === null ? undefined : gt(userDomainBlocks.domain, after)))
      .orderBy(userDomainBlocks.domain)
      .limit(limit);
  }
}
