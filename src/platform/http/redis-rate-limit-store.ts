import { Redis } from 'ioredis';
import type { RateLimitStore } from './rate-limit.ts';

/** Counters shared by every instance: INCR, then set the window's expiry only on its first hit. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  private readonly prefix;

  constructor(url: string, prefix = 'ratelimit:') {
    this.prefix = prefix;
    this.#redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }

  async hit(key: string, windowMs: number) {
    const redisKey = `${this.prefix}${key}`;
    const results = await this.#redis.multi().incr(redisKey).pexpire(redisKey, windowMs, 'NX').pttl(redisKey).exec();
    const count = Number(results?.[0]?.[1] ?? 1);
    const ttl = Number(results?.[2]?.[1] ?? windowMs);
    return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
  }

  async peek(key: string) {
    const redisKey = `${this.prefix}${key}`;
    const results = await this.#redis.multi().get(redisKey).pttl(redisKey).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const ttl = Number(results?.[1]?.[1] ?? -2);
    return count > 0 && ttl > 0 ? { count, resetAt: Date.now() + ttl } : null;
  }

  async close() {
    await this.#redis.quit();
  }
}
