/** The search index's back office: reindex one source or a whole kind, and the health report. Every call is audited. */
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { SearchIndexService } from './search-index.service.ts';
import type { SearchKind } from './tables.ts';

export interface SearchAdminServiceDeps {
  transactions: Transactions;
  audit: AuditLog;
  index: SearchIndexService;
}

export class SearchAdminService {
  readonly #deps: SearchAdminServiceDeps;

  constructor(deps: SearchAdminServiceDeps) {
    this.#deps = deps;
  }

  /** Refreshes one user's or media's document; 404 when the source does not exist (its document, if any, goes). */
  async reindex(kind: SearchKind, id: string) {
    const outcome = await this.#deps.transactions.run(async () => {
      const outcome = await this.#deps.index.refresh(kind, id);
      await this.#deps.audit.record({
        actor: 'admin',
        action: `search.reindex.${kind}`,
        targetType: kind,
        targetId: id,
        payload: { ...outcome },
      });
      return outcome;
    });
    if (!outcome.exists) throw new AppError('notFound', { source: { parameter: 'hex' } });
    return outcome;
  }

  /** Rebuilds a kind in batches (each its own transaction), then audits the counts. */
  async reindexAll(kind: SearchKind) {
    const report = await this.#deps.index.rebuild(kind);
    await this.#deps.audit.record({
      actor: 'admin',
      action: `search.reindexAll.${kind}`,
      targetType: 'searchIndex',
      targetId: kind,
      payload: { ...report },
    });
    return report;
  }

  async health() {
    const health = await this.#deps.index.health();
    await this.#deps.audit.record({ actor: 'admin', action: 'search.health', targetType: 'searchIndex' });
    return health;
  }
}
