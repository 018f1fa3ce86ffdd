/**
 * Live sessions kept in memory for SESSION_CACHE_SECONDS, so an authenticated request reads no session
 * row. Revocation stays exact on the instance that revokes and bounded on the others:
 *
 * - Every write that changes what a token resolves to (a session ended, all of a user's sessions
 *   ended, a ban, an erasure) goes through AccountsRepository, which calls `revokeUser` within the
 *   transaction. Once it commits, this instance forgets the user's cached sessions before it answers,
 *   and tells the other instances through the broadcast (Redis pub/sub, PostgreSQL NOTIFY), which
 *   forget them on receipt.
 * - A lookup that started before a revocation is not cached when it ends (the generation moved on),
 *   so a request in flight cannot put a revoked session back.
 * - Delivery is at most once: a broadcast subscriber that (re)connects drops everything it cached,
 *   and no entry lives longer than the TTL, which bounds what a lost message can cost.
 *
 * Unknown tokens are never cached (random tokens must not fill the memory).
 */
import type { Broadcast } from '../../adapters/broadcast/index.ts';
import { type CacheLookups, TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';

export interface CachedSession {
  userId: string;
  sessionId: string;
  banned: boolean;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** The user's sessions changed: `revokeUser`'s message to every instance (the user's id). */
export const sessionsRevokedChannel = 'sessions.revoked';
const channel = sessionsRevokedChannel;

export class SessionCache {
  /** By token hash; null when SESSION_CACHE_SECONDS is 0. */
  readonly #entries: TtlCache<string, CachedSession> | null;
  #generation = 0;
  private readonly broadcast: Broadcast;
  private readonly transactions: Transactions;

  constructor(options: {
    clock: Clock;
    ttlSeconds: number;
    maxEntries?: number;
    broadcast: Broadcast;
    transactions: Transactions;
  }) {
    this.#entries =
      options.ttlSeconds > 0
        ? new TtlCache(options.clock, options.ttlSeconds * 1000, options.maxEntries ?? 50_000)
        : null;
    this.broadcast = options.broadcast;
    this.transactions = options.transactions;
    if (this.#entries !== null) {
      this.broadcast.subscribe(
        channel,
        (userId) => this.#forgetUser(userId),
        () => this.#forgetAll(),
      );
    }
  }

  /**
   * The session of a token hash: from memory while fresh, at once (no promise: the hit of every
   * authenticated request), else from `load` (cached if nothing was revoked meanwhile).
   */
  resolve(tokenHash: string, load: () => Promise<CachedSession | null>): CachedSession | Promise<CachedSession | null> {
    return this.#entries?.get(tokenHash) ?? this.#load(tokenHash, load);
  }

  async #load(tokenHash: string, load: () => Promise<CachedSession | null>): Promise<CachedSession | null> {
    const generation = this.#generation;
    const session = await load();
    if (session !== null && generation === this.#generation) this.#entries?.set(tokenHash, session);
    return session;
  }

  /**
   * The user's sessions changed (ended, banned, erased): once the transaction in progress commits,
   * forget them here and on every other instance.
   */
  revokeUser(userId: string): Promise<void> {
    return this.transactions.afterCommit(async () => {
      this.#forgetUser(userId);
      // Sent with the cache off too: the notification streams of the user close on it.
      await this.broadcast.publish(channel, userId);
    });
  }

  get size(): number {
    return this.#entries?.size ?? 0;
  }

  /** Hits and misses of the tokens looked up here (none counted with the cache off). */
  get lookups(): CacheLookups | undefined {
    return this.#entries?.lookups;
  }

  /** Forgets every cached session on this instance (POST /admin/cache/purge). */
  clear(): void {
    this.#forgetAll();
  }

  #forgetUser(userId: string) {
    this.#generation += 1;
    this.#entries?.deleteWhere((session) => session.userId === userId);
  }

  #forgetAll() {
    this.#generation += 1;
    this.#entries?.clear();
  }
}
