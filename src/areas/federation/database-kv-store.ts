/**
 * Fedify's KvStore on the service's database (federation_kv), so every instance shares the cached
 * documents, the inbox's idempotence and the circuit breaker's state, on PGlite and PostgreSQL alike.
 * Times come from the injected clock.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { KvStoreRepository } from './kv-store.repository.ts';

export interface DatabaseKvStoreDeps {
  transactions: Transactions;
  repository: KvStoreRepository;
  clock: Clock;
}

const keyText = (key: KvKey) => JSON.stringify(key);

export class DatabaseKvStore implements KvStore {
  readonly #deps: DatabaseKvStoreDeps;

  constructor(deps: DatabaseKvStoreDeps) {
    this.#deps = deps;
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    return (await this.#deps.repository.get(keyText(key), this.#deps.clock.now())) as T | undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await this.#deps.repository.set(keyText(key), value, this.#expiry(options));
  }

  async delete(key: KvKey): Promise<void> {
    await this.#deps.repository.delete(keyText(key));
  }

  /** Compares under the row's lock; an absent expected value means "no live entry". */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const { transactions, repository, clock } = this.#deps;
    const text = keyText(key);
    const now = clock.now();
    if (expectedValue === undefined) return repository.insertIfAbsent(text, newValue, this.#expiry(options), now);
    return transactions.run(async () => {
      const current = await repository.getForUpdate(text, now);
      if (current === undefined || !isDeepStrictEqual(current, expectedValue)) return false;
      await repository.set(text, newValue, this.#expiry(options));
      return true;
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const rows = await this.#deps.repository.list(
      prefix === undefined ? null : keyText(prefix).slice(0, -1),
      this.#deps.clock.now(),
    );
    for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: row.value };
  }

  #expiry(options: KvStoreSetOptions | undefined): Date | null {
    const ttl = options?.ttl;
    return ttl === undefined ? null : new Date(this.#deps.clock.now().getTime() + ttl.total('millisecond'));
  }
}
