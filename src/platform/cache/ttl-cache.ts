/**
 * A bounded in-process cache whose entries expire after a fixed time on the injected clock. When
 * full, the oldest entry goes first. For values that may be slightly stale across instances, with
 * local writes forgetting their keys at once.
 */
import type { Clock } from '../clock.ts';

export interface CacheLookups {
  hits: number;
  misses: number;
}

export class TtlCache<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number }>();
  /** Every `get` since the cache was made, found or not (the metrics' tms_cache_lookups_total). */
  readonly lookups: CacheLookups = { hits: 0, misses: 0 };

  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(clock: Clock, ttlMs: number, maxEntries: number) {
    this.clock = clock;
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.lookups.misses++;
      return undefined;
    }
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.#entries.delete(key);
      this.lookups.misses++;
      return undefined;
    }
    this.lookups.hits++;
    return entry.value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: this.clock.now().getTime() + this.ttlMs });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** Forgets every entry whose value matches (a scan: for rare events, such as a revocation). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
