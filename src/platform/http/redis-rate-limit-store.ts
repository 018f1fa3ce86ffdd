/**
 * Counters shared by every instance: INCR, then set the window's expiry only on its first hit, in one
 * script (EVALSHA): one command a request, where MULTI, INCR, PEXPIRE, PTTL and EXEC were five for the
 * client to build and parse (with rate limits on, that made a ping half again as costly: docs/
 * benchmarks.md, The per-request work, again).
 *
 * While Redis cannot answer (stopped, restarting, unreachable), each instance counts in memory
 * instead (a MemoryRateLimitStore of its own): the limits still hold, per instance, so N instances
 * let a client through at most N times a limit; requests are neither refused nor held up because
 * Redis is gone. A command that is not answered within `commandTimeoutMs` counts as Redis being
 * gone; nothing waits for a reconnection. Each switch is logged once (`rateLimits.redisUnavailable`
 * at warn, `rateLimits.redisRecovered` at info); back on Redis, counting starts again from what Redis
 * holds (nothing after a restart without persistence).
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { systemClock } from '../clock.ts';
import { MemoryRateLimitStore } from './memory-rate-limit-store.ts';
import type { RateLimitStore } from './rate-limit.ts';

/** A hit: the count, the expiry set if the key has none yet (the window's first hit), and the time left. */
const hitScript = `
local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1], 'NX')
return { count, redis.call('PTTL', KEYS[1]) }`;

type ScriptedRedis = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: ScriptedRedis;
  readonly #fallback = new MemoryRateLimitStore(systemClock);
  #degraded = false;
  /** Settles when the first connection is ready or has failed: counts made at start-up wait for it. */
  readonly #firstConnection: Promise<void>;
  private readonly prefix;
  private readonly logger: Logger | undefined;

  constructor(url: string, options: { prefix?: string; logger?: Logger; commandTimeoutMs?: number } = {}) {
    this.prefix = options.prefix ?? 'ratelimit:';
    this.logger = options.logger;
    this.#redis = new Redis(url, {
      lazyConnect: false,
      // Fail at once while disconnected rather than queue the command until a reconnection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: 2000,
    }) as ScriptedRedis;
    this.#redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: hitScript });
    this.#redis.on('error', () => {}); // reported through the counts that fall back (below)
    this.#firstConnection = new Promise<void>((resolve) => {
      this.#redis.once('ready', resolve);
      this.#redis.once('error', () => resolve());
    });
  }

  hit(key: string, windowMs: number) {
    return this.#counted(
      async () => {
        const [count, ttl] = await this.#redis.rateLimitHit(`${this.prefix}${key}`, windowMs);
        return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
      },
      () => this.#fallback.hit(key, windowMs),
    );
  }

  peek(key: string) {
    return this.#counted(
      async () => {
        const redisKey = `${this.prefix}${key}`;
        const results = await this.#redis.multi().get(redisKey).pttl(redisKey).exec();
        const count = Number(results?.[0]?.[1] ?? 0);
        const ttl = Number(results?.[1]?.[1] ?? -2);
        return count > 0 && ttl > 0 ? { count, resetAt: Date.now() + ttl } : null;
      },
      () => this.#fallback.peek(key),
    );
  }

  /** Redis when it answers, else the memory of this instance. */
  async #counted<T>(inRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    await this.#firstConnection;
    if (this.#redis.status === 'ready') {
      try {
        const result = await inRedis();
        if (this.#degraded) {
          this.#degraded = false;
          this.logger?.info({ event: 'rateLimits.redisRecovered' }, 'rate limits are counted in Redis again');
        }
        return result;
      } catch (error) {
        this.#fellBack(error);
      }
    } else {
      this.#fellBack(new Error(`redis connection ${this.#redis.status}`));
    }
    return inMemory();
  }

  #fellBack(error: unknown) {
    if (this.#degraded) return;
    this.#degraded = true;
    this.logger?.warn(
      { event: 'rateLimits.redisUnavailable', err: error },
      'Redis does not answer: rate limits are counted in this instance’s memory until it does',
    );
  }

  async close() {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
