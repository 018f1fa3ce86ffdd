/**
 * Keeps the search index in step with its sources: one document refreshed on a write (the event
 * subscribers), a kind rebuilt in batches (the admin reindex-all routes), stale and missing documents
 * repaired (the search-index job). Every write is an idempotent upsert or delete computed from the
 * source as the transaction sees it, so runs may overlap and a run may be repeated.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { IndexRepository, KindHealth } from './index.repository.ts';
import type { SearchDocumentRow, SearchKind } from './tables.ts';

export const searchKinds: readonly SearchKind[] = ['user', 'media'];
export const defaultBatchSize = 500;

export interface RebuildReport {
  kind: SearchKind;
  /** Source rows read (public or not). */
  scanned: number;
  /** Documents written (created or refreshed). */
  indexed: number;
  /** Documents removed: their source is gone or no longer public. */
  removed: number;
  batches: number;
}

export interface RepairReport {
  kind: SearchKind;
  /** Stale or missing documents written. */
  indexed: number;
  /** Documents of sources gone or no longer public, removed. */
  removed: number;
}

export interface KindStatus extends KindHealth {
  lastRebuildAt: Date | null;
  lastRepairAt: Date | null;
}

export interface SearchIndexServiceDeps {
  transactions: Transactions;
  repository: IndexRepository;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Sources per statement when rebuilding or repairing (default defaultBatchSize). */
  batchSize?: number;
}

export class SearchIndexService {
  readonly #deps: SearchIndexServiceDeps;
  readonly #batchSize: number;

  constructor(deps: SearchIndexServiceDeps) {
    this.#deps = deps;
    this.#batchSize = deps.batchSize ?? defaultBatchSize;
  }

  /**
   * Brings one source's document in line with the source (in the transaction in progress, if any):
   * written when the source is public, removed otherwise. `changed` tells whether the indexed text or
   * presence moved.
   */
  refresh(kind: SearchKind, id: string): Promise<{ indexed: boolean; changed: boolean; exists: boolean }> {
    return this.#deps.transactions.run(async () => {
      const before = await this.#deps.repository.find(kind, id);
      await this.#deps.repository.upsert(kind, [id], this.#deps.clock.now());
      await this.#deps.repository.removeNonPublic(kind, [id]);
      const after = await this.#deps.repository.find(kind, id);
      const exists = after !== null || (await this.#deps.repository.sourceExists(kind, id));
      return { indexed: after !== null, changed: !sameText(before, after), exists };
    });
  }

  /** The same without the report, for the event subscribers: two statements in the producer's transaction. */
  async sync(kind: SearchKind, id: string): Promise<void> {
    await this.#deps.repository.upsert(kind, [id], this.#deps.clock.now());
    await this.#deps.repository.removeNonPublic(kind, [id]);
  }

  /** Refreshes the documents of every media of an owner (their standing decides whether those are public). */
  async refreshMediaOf(ownerId: string): Promise<void> {
    const ids = await this.#deps.repository.mediaIdsOf(ownerId);
    for (let start = 0; start < ids.length; start += this.#batchSize) {
      const batch = ids.slice(start, start + this.#batchSize);
      await this.#deps.transactions.run(async () => {
        await this.#deps.repository.upsert('media', batch, this.#deps.clock.now());
        await this.#deps.repository.removeNonPublic('media', batch);
      });
    }
  }

  /** Rebuilds every document of a kind: sources in id order, a batch a transaction, then documents left by deleted sources. */
  async rebuild(kind: SearchKind): Promise<RebuildReport> {
    const report: RebuildReport = { kind, scanned: 0, indexed: 0, removed: 0, batches: 0 };
    let after: string | null = null;
    for (;;) {
      const ids = await this.#deps.repository.sourceIds(kind, after, this.#batchSize);
      const last = ids.at(-1);
      if (last === undefined) break;
      await this.#deps.transactions.run(async () => {
        report.indexed += await this.#deps.repository.upsert(kind, ids, this.#deps.clock.now());
        report.removed += await this.#deps.repository.removeNonPublic(kind, ids);
      });
      report.scanned += ids.length;
      report.batches += 1;
      after = last;
      this.#deps.logger.info(
        { event: 'search.rebuild.progress', ...report },
        `search index: ${kind} batch ${report.batches}`,
      );
    }
    report.removed += await this.#removeOrphans(kind);
    await this.#deps.repository.recordRun(kind, 'rebuild', this.#deps.clock.now(), { ...report });
    this.#deps.logger.info({ event: 'search.rebuild.done', ...report }, `search index: ${kind} rebuilt`);
    return report;
  }

  /** The search-index job: writes stale and missing documents, removes those of sources gone or no longer public. */
  async repair(): Promise<{ users: RepairReport; media: RepairReport }> {
    const [users, media] = [await this.#repair('user'), await this.#repair('media')];
    return { users, media };
  }

  async #repair(kind: SearchKind): Promise<RepairReport> {
    const report: RepairReport = { kind, indexed: 0, removed: 0 };
    let after: string | null = null;
    for (;;) {
      const ids = await this.#deps.repository.staleOrMissingIds(kind, after, this.#batchSize);
      const last = ids.at(-1);
      if (last === undefined) break;
      report.indexed += await this.#deps.repository.upsert(kind, ids, this.#deps.clock.now());
      after = last;
    }
    report.removed = await this.#removeOrphans(kind);
    await this.#deps.repository.recordRun(kind, 'repair', this.#deps.clock.now(), { ...report });
    if (report.indexed + report.removed > 0) {
      this.#deps.logger.info({ event: 'search.repair.done', ...report }, `search index: ${kind} repaired`);
    }
    return report;
  }

  async #removeOrphans(kind: SearchKind): Promise<number> {
    let removed = 0;
    let after: string | null = null;
    for (;;) {
      const ids = await this.#deps.repository.orphanIds(kind, after, this.#batchSize);
      const last = ids.at(-1);
      if (last === undefined) break;
      removed += await this.#deps.repository.removeNonPublic(kind, ids);
      after = last;
    }
    return removed;
  }

  /** Documents against sources, per kind, with the last rebuild and repair. */
  async health(): Promise<Record<SearchKind, KindStatus>> {
    const runs = await this.#deps.repository.lastRuns();
    const lastRun = (kind: SearchKind, run: 'rebuild' | 'repair') =>
      runs.find((row) => row.kind === kind && row.run === run)?.finishedAt ?? null;
    const status = async (kind: SearchKind): Promise<KindStatus> => ({
      ...(await this.#deps.repository.health(kind)),
      lastRebuildAt: lastRun(kind, 'rebuild'),
      lastRepairAt: lastRun(kind, 'repair'),
    });
    return { user: await status('user'), media: await status('media') };
  }
}

const sameText = (a: SearchDocumentRow | null, b: SearchDocumentRow | null) =>
  a === null || b === null ? a === b : a.name === b.name && a.label === b.label && a.body === b.body;
