/**
 * Each viewer's filters kept in memory a few seconds, so the lists of a request (and of the next ones)
 * read them once. A user's own write forgets them here once it commits, and on every other instance
 * through the broadcast; a lookup that started before a write is not cached when it ends, and no entry
 * outlives the TTL, which bounds what a lost message can cost (as accounts' session cache does).
 */
import type { Broadcast } from '../../adapters/broadcast/index.ts';
import { type CacheLookups, TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { FilterWithKeywords } from './filters.repository.ts';

const channel = 'filters.changed';
export const filtersCacheTtlMs = 10_000;

export class FiltersCache {
  readonly #entries: TtlCache<string, FilterWithKeywords[]>;
  #generation = 0;
  private readonly broadcast: Broadcast;
  private readonly transactions: Transactions;

  constructor(options: { clock: Clock; broadcast: Broadcast; transactions: Transactions }) {
    this.#entries = new TtlCache(options.clock, filtersCacheTtlMs, 10_000);
    this.broadcast = options.broadcast;
    this.transactions = options.transactions;
    this.broadcast.subscribe(
      channel,
      (userId) => this.#forget(userId),
      () => this.clear(),
    );
  }

  async resolve(userId: string, load: () => Promise<FilterWithKeywords[]>): Promise<FilterWithKeywords[]> {
    const cached = this.#entries.get(userId);
    if (cached !== undefined) return cached;
    const generation = this.#generation;
    const loaded = await load();
    if (generation === this.#generation) this.#entries.set(userId, loaded);
    return loaded;
  }

  /** The user's filters changed: once the transaction in progress commits, forget them everywhere. */
  changed(userId: string): Promise<void> {
    return this.transactions.afterCommit(async () => {
      this.#forget(userId);
      await this.broadcast.publish(channel, userId);
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  get lookups(): CacheLookups {
    return this.#entries.lookups;
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  #forget(userId: string): void {
    this.#generation += 1;
    this.#entries.delete(userId);
  }
}
