/**
 * The rate-limit counters of one instance (no REDIS_URL): fixed windows in a Map bounded to
 * `maxEntries` keys. A full store forgets the least recently counted key first, so an attacker sending
 * unique keys (addresses, usernames) costs at most `maxEntries` small entries, never unbounded memory.
 * The per-IP rule runs before per-account ones and stops the count when it refuses, so one IP adds at
 * most its own limit of per-account keys per window.
 */
import type { Clock } from '../clock.ts';
import type { RateLimitStore } from './rate-limit.ts';

/** About 100 bytes a key: 100,000 keys hold in some 10 MB. */
export const defaultRateLimitEntries = 100_000;

export class MemoryRateLimitStore implements RateLimitStore {
  /** Insertion order is recency order: a counted key is moved to the end. */
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  private readonly clock: Clock;
  private readonly maxEntries: number;

  constructor(clock: Clock, maxEntries = defaultRateLimitEntries) {
    this.clock = clock;
    this.maxEntries = maxEntries;
  }

  /** How many keys are held now. */
  get size(): number {
    return this.#windows.size;
  }

  async hit(key: string, windowMs: number) {
    const now = this.clock.now().getTime();
    const current = this.#windows.get(key);
    this.#windows.delete(key);
    const window =
      current === undefined || current.resetAt <= now
        ? { count: 1, resetAt: now + windowMs }
        : { count: current.count + 1, resetAt: current.resetAt };
    this.#windows.set(key, window);
    if (this.#windows.size > this.maxEntries) this.#evictOldest();
    return window;
  }

  async peek(key: string) {
    const window = this.#windows.get(key);
    return window === undefined || window.resetAt <= this.clock.now().getTime() ? null : { ...window };
  }

  #evictOldest() {
    for (const key of this.#windows.keys()) {
      this.#windows.delete(key);
      if (this.#windows.size <= this.maxEntries) return;
    }
  }
}
