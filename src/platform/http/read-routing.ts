/**
 * Which requests may read from the read replica (src/platform/db/replica.ts), and read-your-writes.
 *
 * A route's handler runs where reads marked replica-safe may go to the replica when the request is a
 * GET or HEAD and its viewer (if any) has not written recently; every other request reads only from
 * the primary. Jobs, the CLI and anything outside a route never reach the replica.
 *
 * Read-your-writes: a request by a signed-in viewer with another method (POST, PUT, PATCH, DELETE:
 * whatever its outcome) notes the viewer as a recent writer before its answer leaves, in this
 * instance's memory and, through the broadcast (Redis, else PostgreSQL NOTIFY), in every other
 * instance's. For the window that follows (DATABASE_REPLICA_MAX_LAG_SECONDS, the lag bound: so a
 * replica in use, never further behind than the bound, has the write once the window ends), that
 * viewer's reads all go to the primary, on every instance. Each instance times the window from when it
 * heard of the write (no clocks compared); an instance that may have missed messages (its broadcast
 * reconnected) sends every signed-in viewer to the primary for one window.
 */
import type { Broadcast } from '../../adapters/broadcast/broadcast.ts';
import type { Clock } from '../clock.ts';
import type { App } from './types.ts';

const channel = 'replica.recentWriter';
const safeMethods = new Set(['GET', 'HEAD']);

/** The read replica as routes see it. */
export interface ReplicaRouting {
  /** Runs fn where reads marked replica-safe may go to the replica. */
  allowIn<T>(fn: () => T): T;
}

/** The viewers who wrote within the window, on every instance (see above). */
export class RecentWriters {
  readonly #writers = new Map<string, number>();
  readonly #broadcast: Broadcast;
  readonly #clock: Clock;
  readonly #windowMs: number;
  /** Until when every signed-in viewer counts as a recent writer (messages may have been missed). */
  #everyoneUntil = 0;

  constructor(broadcast: Broadcast, clock: Clock, windowMs: number) {
    this.#broadcast = broadcast;
    this.#clock = clock;
    this.#windowMs = windowMs;
    broadcast.subscribe(
      channel,
      (userId) => this.#remember(userId),
      () => {
        this.#everyoneUntil = this.#now() + this.#windowMs;
      },
    );
  }

  #now(): number {
    return this.#clock.now().getTime();
  }

  #remember(userId: string): void {
    const now = this.#now();
    // Entries past their window go as new ones arrive: the map holds one window's writers.
    for (const [id, until] of this.#writers) if (until <= now) this.#writers.delete(id);
    this.#writers.delete(userId);
    this.#writers.set(userId, now + this.#windowMs);
  }

  /** Notes a write by userId here, then tells the other instances (resolves once handed over). */
  async note(userId: string): Promise<void> {
    this.#remember(userId);
    await this.#broadcast.publish(channel, userId);
  }

  /** Whether userId's reads must go to the primary now. */
  wroteRecently(userId: string): boolean {
    const now = this.#now();
    return now < this.#everyoneUntil || (this.#writers.get(userId) ?? 0) > now;
  }
}

/**
 * Routes run their handlers through `app.routedReads` (route.ts); registered, it lets public reads go
 * to the replica and notes writers. Unregistered (no replica), every read goes to the primary.
 */
export function registerReadRouting(app: App, replica: ReplicaRouting, writers: RecentWriters): void {
  app.routedReads = (request, handler) => {
    if (!safeMethods.has(request.method)) return handler();
    const viewer = request.viewer;
    if (viewer !== null && writers.wroteRecently(viewer.userId)) return handler();
    return replica.allowIn(handler);
  };
  app.addHook('onSend', async (request) => {
    if (request.viewer !== null && !safeMethods.has(request.method)) await writers.note(request.viewer.userId);
  });
}
