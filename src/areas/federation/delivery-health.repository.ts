/** All SQL of the outgoing deliveries' health per domain (federation_domain_health). */
import { eq, sql } from 'drizzle-orm';
import { nameOf } from '../../platform/db/column-names.ts';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { type DomainHealthRow, federationDomainHealth as h } from './tables.ts';

/** The domains, by name. */
export const domainHealthKeyset = defineKeyset<DomainHealthRow>({
  name: 'federation-domains',
  order: 'asc',
  shape: ['string'],
  columns: [h.domain],
  keyOf: (row) => [row.domain],
});

export class DeliveryHealthRepository extends Repository {
  async find(domain: string): Promise<DomainHealthRow | null> {
    const [row] = await this.db.select().from(h).where(eq(h.domain, domain));
    return row ?? null;
  }

  /** A delivery went through (or the domain answered): its failures forgotten. */
  async recordSuccess(domain: string, at: Date): Promise<void> {
    const healthy = { consecutiveFailures: 0, failingSince: null, backoffs: 0, retryAt: null, lastSuccessAt: at };
    await this.db
      .insert(h)
      .values({ domain, ...healthy })
      .onConflictDoUpdate({ target: h.domain, set: healthy });
  }

  /** One more consecutive failure; the row as it is now. */
  async recordFailure(domain: string, at: Date, error: string): Promise<DomainHealthRow> {
    const [row] = await this.db
      .insert(h)
      .values({ domain, consecutiveFailures: 1, failingSince: at, lastFailureAt: at, lastError: error })
      .onConflictDoUpdate({
        target: h.domain,
        set: {
          consecutiveFailures: sql`${h.consecutiveFailures} + 1`,
          failingSince: sql`coalesce(${h.failingSince}, excluded.${nameOf(h.failingSince)})`,
          lastFailureAt: at,
          lastError: error,
        },
      })
      .returning();
    return returned(row, 'federation_domain_health.recordFailure');
  }

  /** The domain's deliveries held until `retryAt` (its `backoffs`-th back-off). */
  async backOff(domain: string, backoffs: number, retryAt: Date): Promise<void> {
    await this.db.update(h).set({ backoffs, retryAt }).where(eq(h.domain, domain));
  }

  async list(page: PageRequest): Promise<DomainHealthRow[]> {
    const { where, orderBy } = keyset(domainHealthKeyset, page);
    return this.db
      .select()
      .from(h)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }
}
