/**
 * Which requests may read from the read replica (src/platform/db/replica.ts), and read-your-writes.
 *
 * A route's handler runs where reads marked replica-safe may go to the replica when the request is a
 * GET or HEAD of a public route (auth `none` or `optional`: a route that requires sign-in reads the
 * viewer's own data) from a client that has not written recently; every other request reads only from
 * the primary. Jobs, the CLI and anything outside a route never reach the replica.
 *
 * Read-your-writes, per session: a request with a session token (Bearer, or the web sign-in cookie)
 * and another method (POST, PUT, PATCH, DELETE: whatever its route and outcome) notes the token as a
 * recent writer before its answer leaves, in this instance's memory and, through the broadcast (Redis,
 * else PostgreSQL NOTIFY), in every other instance's: a SHA-256 digest of the token, never the token.
 * For the window that follows (DATABASE_REPLICA_MAX_LAG_SECONDS, the lag bound: so a replica in use,
 * never further behind than the bound, has the write once the window ends), every read sent with that
 * token goes to the primary, on every instance, public routes included (which never look the session
 * up: the token is enough). Each instance times the window from when it heard of the write (no clocks
 * compared); an instance that may have missed messages (its broadcast reconnected) sends every client
 * with a token to the primary for one window.
 */
import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Broadcast } from '../../adapters/broadcast/broadcast.ts';
import type { Clock } from '../clock.ts';
import { bearerToken, webSessionCookie } from './auth.ts';
import { readCookie } from './cookies.ts';
import type { App } from './types.ts';

const channel = 'replica.recentWriter';
const safeMethods = new Set(['GET', 'HEAD']);

/** The read replica as routes see it. */
export interface ReplicaRouting {
  /** Runs fn where reads marked replica-safe may go to the replica. */
  allowIn<T>(fn: () => T): T;
}

/** Which session a request is sent with, as a digest; null without a token. */
function writerKey(request: FastifyRequest): string | null {
  const token = bearerToken(request) ?? readCookie(request, webSessionCookie);
  return token === null ? null : hash('sha256', token, 'base64url');
}

/** The sessions that wrote within the window, on every instance (see above). */
export class RecentWriters {
  readonly #writers = new Map<string, number>();
  readonly #broadcast: Broadcast;
  readonly #clock: Clock;
  readonly #windowMs: number;
  /** Until when every session counts as a recent writer (messages may have been missed). */
  #everyoneUntil = 0;

  constructor(broadcast: Broadcast, clock: Clock, windowMs: number) {
    this.#broadcast = broadcast;
    this.#clock = clock;
    this.#windowMs = windowMs;
    broadcast.subscribe(
      channel,
      (key) => this.#remember(key),
      () => {
        this.#everyoneUntil = this.#now() + this.#windowMs;
      },
    );
  }

  #now(): number {
    return this.#clock.now().getTime();
  }

  #remember(key: string): void {
    const now = this.#now();
    // Entries past their window go as new ones arrive (oldest first): the map holds one window's writers.
    for (const [old, until] of this.#writers) {
      if (until > now) break;
      this.#writers.delete(old);
    }
    this.#writers.delete(key);
    this.#writers.set(key, now + this.#windowMs);
  }

  /** Notes a write by the session `key` here, then tells the other instances (resolves once handed over). */
  async note(key: string): Promise<void> {
    this.#remember(key);
    await this.#broadcast.publish(channel, key);
  }

  /** Whether the session `key`'s reads must go to the primary now. */
  wroteRecently(key: string): boolean {
    const now = this.#now();
    return now < this.#everyoneUntil || (this.#writers.get(key) ?? 0) > now;
  }
}

/**
 * Routes run their handlers through `app.routedReads` (route.ts); registered, it lets public reads go
 * to the replica and notes writers. Unregistered (no replica), every read goes to the primary.
 */
export function registerReadRouting(app: App, replica: ReplicaRouting, writers: RecentWriters): void {
  app.routedReads = (request, handler) => {
    if (!safeMethods.has(request.method)) return handler();
    const auth = request.routeOptions.config.auth;
    if (auth !== 'none' && auth !== 'optional') return handler();
    const key = writerKey(request);
    if (key !== null && writers.wroteRecently(key)) return handler();
    return replica.allowIn(handler);
  };
  app.addHook('onSend', async (request) => {
    if (safeMethods.has(request.method) || request.method === 'OPTIONS') return;
    const key = writerKey(request);
    if (key !== null) await writers.note(key);
  });
}
