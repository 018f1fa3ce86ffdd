/** All SQL of the operators' domain blocks (federation_domain_blocks). */
import { and, eq } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { federationDomainBlocks as b, type DomainBlockRow } from './tables.ts';

/** The blocks, by domain. */
export const adminDomainBlocksKeyset = defineKeyset<DomainBlockRow>({
  name: 'admin-domain-blocks',
  order: 'asc',
  shape: ['string'],
  columns: [b.domain],
  keyOf: (row) => [row.domain],
});

export class DomainBlocksRepository extends Repository {
  async find(domain: string): Promise<DomainBlockRow | null> {
    const [row] = await this.db.select().from(b).where(eq(b.domain, domain));
    return row ?? null;
  }

  /** Every block in force, as the inboxes and the queue ask about them (domain-block-list.ts). */
  async severities(): Promise<Array<Pick<DomainBlockRow, 'domain' | 'severity'>>> {
    return this.db.select({ domain: b.domain, severity: b.severity }).from(b);
  }

  async upsert(row: DomainBlockRow): Promise<void> {
    const { domain: _key, createdAt: _created, ...changed } = row;
    await this.db.insert(b).values(row).onConflictDoUpdate({ target: b.domain, set: changed });
  }

  /** false when there was no such block. */
  async delete(domain: string): Promise<boolean> {
    const deleted = await this.db
      .delete(b)
      .where(and(eq(b.domain, domain)))
      .returning({ domain: b.domain });
    return deleted.length > 0;
  }

  async list(page: PageRequest): Promise<DomainBlockRow[]> {
    const { where, orderBy } = keyset(adminDomainBlocksKeyset, page);
    return this.db
      .select()
      .from(b)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }
}
