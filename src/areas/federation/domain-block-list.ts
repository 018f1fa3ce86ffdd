/**
 * The operators' domain blocks in force, held in memory (docs/development.md, Caches): every inbox
 * POST, delivery and actor fetch asks about a host, and the list is small and seldom changes, so the
 * whole list (domain and severity) is read in one statement and kept `heldForMs`; a host is then
 * looked up in memory. A change (`changed`, called in the transaction of the block's write) takes
 * effect at once on this instance when it commits, and on the others when the broadcast reaches them
 * (Redis pub/sub, else PostgreSQL NOTIFY), as sessions' revocations do; a lost message costs at most
 * `heldForMs`, and a subscriber that may have missed one drops the list. A read that began before a
 * change is not kept (the generation moved on). POST /admin/cache/purge empties it too
 * (`federation.domainBlocks`).
 */
import type { Broadcast } from '../../adapters/broadcast/index.ts';
import type { CacheLookups } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { DomainBlockSeverity } from './tables.ts';

/** A minute: how long another instance may miss a change whose broadcast was lost. */
export const heldForMs = 60_000;

/** A block changed (the message carries nothing: every instance reads the list again). */
export const domainBlocksChangedChannel = 'federation.domainBlocks.changed';

export type DomainSeverities = ReadonlyMap<string, DomainBlockSeverity>;

export interface DomainBlockListDeps {
  clock: Clock;
  broadcast: Broadcast;
  transactions: Transactions;
  /** Every block in force: one statement. */
  load(): Promise<Array<{ domain: string; severity: DomainBlockSeverity }>>;
}

export class DomainBlockList {
  readonly #deps: DomainBlockListDeps;
  readonly lookups: CacheLookups = { hits: 0, misses: 0 };
  #held: { severities: DomainSeverities; until: number } | null = null;
  #loading: Promise<DomainSeverities> | null = null;
  #generation = 0;

  constructor(deps: DomainBlockListDeps) {
    this.#deps = deps;
    deps.broadcast.subscribe(
      domainBlocksChangedChannel,
      () => this.clear(),
      () => this.clear(),
    );
  }

  /** The blocks by domain: held, or read once for every caller waiting. */
  severities(): Promise<DomainSeverities> {
    const held = this.#held;
    if (held !== null && held.until > this.#deps.clock.now().getTime()) {
      this.lookups.hits += 1;
      return Promise.resolve(held.severities);
    }
    this.lookups.misses += 1;
    if (this.#loading === null) {
      const loading = this.#load().finally(() => {
        if (this.#loading === loading) this.#loading = null;
      });
      this.#loading = loading;
    }
    return this.#loading;
  }

  /** A block was written: once the transaction commits, every instance forgets the list. */
  changed(): Promise<void> {
    return this.#deps.transactions.afterCommit(async () => {
      this.clear();
      await this.#deps.broadcast.publish(domainBlocksChangedChannel, '');
    });
  }

  get size(): number {
    return this.#held?.severities.size ?? 0;
  }

  clear(): void {
    this.#generation += 1;
    this.#held = null;
    this.#loading = null;
  }

  async #load(): Promise<DomainSeverities> {
    const generation = this.#generation;
    const rows = await this.#deps.load();
    const severities = new Map(rows.map((row) => [row.domain, row.severity]));
    if (generation === this.#generation)
      this.#held = { severities, until: this.#deps.clock.now().getTime() + heldForMs };
    return severities;
  }
}
