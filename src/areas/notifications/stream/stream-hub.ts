/**
 * The notification streams open on this instance, and what reaches them from every instance through
 * the broadcast (Redis pub/sub with REDIS_URL, else PostgreSQL LISTEN/NOTIFY, else in process):
 *
 * - `notifications.changed` (an owner's id), published after the commit of every change to a feed (a
 *   dispatch, a refresh, a read, a deletion): the owner's streams here read what changed from the
 *   database. The message only wakes them, so messages arriving out of order or twice change nothing.
 * - `sessions.revoked` (accounts' revocation): the user's streams check their sessions and those
 *   ended (logout, ban, erasure) close.
 * - `notifications.streams.close` (stream ids): the cap of `maxPerUser` a user, counted in the
 *   notification_streams table across instances; opening one more closes the oldest, wherever it runs.
 *
 * A gap in the broadcast (a subscription reconnects: messages may be lost) wakes every stream and
 * checks every session; the heartbeat (every 20 s) checks them too, in one statement, so a lost
 * revocation closes a stream within a heartbeat at worst.
 */
import type { Broadcast } from '../../../adapters/broadcast/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import type { Locale } from '../../../platform/i18n/i18n.ts';
import { newId } from '../../../platform/ids/ids.ts';
import { sessionsRevokedChannel } from '../../accounts/public.ts';
import type { StreamStart } from './event-ids.ts';
import { NotificationStream, type StreamReads } from './notification-stream.ts';
import type { StreamRepository } from './stream.repository.ts';

const changedChannel = 'notifications.changed';
const closeChannel = 'notifications.streams.close';

export interface StreamHubDeps extends StreamReads {
  broadcast: Broadcast;
  transactions: Transactions;
  repository: StreamRepository;
  sessions: { liveAmong(sessionIds: string[]): Promise<Set<string>> };
  /** Accounts' lock of a user: openings of one user's streams count them one at a time. */
  users: { lock(userId: string): Promise<unknown> };
  clock: Clock;
  heartbeatMs: number;
  maxPerUser: number;
}

export class StreamHub {
  readonly #deps: StreamHubDeps;
  readonly #streams = new Map<string, NotificationStream>();
  readonly #byUser = new Map<string, Set<NotificationStream>>();
  /** Registrations being removed (closed streams), awaited by `closeAll`. */
  readonly #unregistering = new Set<Promise<void>>();
  #heartbeat: NodeJS.Timeout | null = null;

  constructor(deps: StreamHubDeps) {
    this.#deps = deps;
    const { broadcast } = deps;
    broadcast.subscribe(
      changedChannel,
      (userId) => this.#wake(this.#ofUser(userId)),
      () => this.#wake([...this.#streams.values()]),
    );
    broadcast.subscribe(
      sessionsRevokedChannel,
      (userId) => void this.#checkSessions(this.#ofUser(userId)),
      () => void this.#checkSessions([...this.#streams.values()]),
    );
    broadcast.subscribe(
      closeChannel,
      (ids) => {
        for (const id of ids.split(',')) this.#streams.get(id)?.close();
      },
      () => {},
    );
  }

  /** Streams open on this instance. */
  get size(): number {
    return this.#streams.size;
  }

  /** Opens a stream of the user's feed: registered, then started (its replay), the user's oldest closed past the cap. */
  async open(owner: { userId: string; sessionId: string; locale: Locale }, start: StreamStart) {
    const { repository, transactions, clock, maxPerUser, users } = this.#deps;
    const id = newId();
    const evicted = await transactions.run(async () => {
      await users.lock(owner.userId);
      await repository.register(id, owner.userId, clock.now());
      return repository.trim(owner.userId, maxPerUser);
    });
    const stream = new NotificationStream({ id, ...owner }, start, this.#deps, () => this.#forget(stream));
    this.#streams.set(id, stream);
    const ofUser = this.#byUser.get(owner.userId) ?? new Set();
    this.#byUser.set(owner.userId, ofUser.add(stream));
    const elsewhere = evicted.filter((evictedId) => {
      const local = this.#streams.get(evictedId);
      local?.close();
      return local === undefined;
    });
    if (elsewhere.length > 0) await this.#deps.broadcast.publish(closeChannel, elsewhere.join(','));
    this.#heartbeat ??= setInterval(() => this.#beat(), this.#deps.heartbeatMs).unref();
    stream.wake();
    return stream;
  }

  /** The owner's feed changed: once the transaction in progress commits, their streams everywhere send it. */
  changed(ownerId: string): Promise<void> {
    return this.#deps.transactions.afterCommit(() => this.#deps.broadcast.publish(changedChannel, ownerId));
  }

  /** Ends every stream of this instance (the server stops: clients reconnect to another one). */
  async closeAll(): Promise<void> {
    for (const stream of [...this.#streams.values()]) stream.close();
    await Promise.allSettled([...this.#unregistering]);
  }

  #ofUser(userId: string): NotificationStream[] {
    return [...(this.#byUser.get(userId) ?? [])];
  }

  #wake(streams: NotificationStream[]): void {
    for (const stream of streams) stream.wake();
  }

  #beat(): void {
    for (const stream of this.#streams.values()) stream.heartbeat();
    void this.#checkSessions([...this.#streams.values()]);
  }

  async #checkSessions(streams: NotificationStream[]): Promise<void> {
    if (streams.length === 0) return;
    try {
      const live = await this.#deps.sessions.liveAmong([...new Set(streams.map((stream) => stream.owner.sessionId))]);
      for (const stream of streams) if (!live.has(stream.owner.sessionId)) stream.close();
    } catch (error) {
      this.#deps.logger.warn({ event: 'notifications.streamCheckFailed', err: error }, 'stream sessions not checked');
    }
  }

  #forget(stream: NotificationStream): void {
    const { id, userId } = stream.owner;
    this.#streams.delete(id);
    const ofUser = this.#byUser.get(userId);
    ofUser?.delete(stream);
    if (ofUser?.size === 0) this.#byUser.delete(userId);
    if (this.#streams.size === 0 && this.#heartbeat !== null) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = null;
    }
    const unregistering = this.#deps.repository
      .unregister([id])
      .catch((error) =>
        this.#deps.logger.warn(
          { event: 'notifications.streamUnregisterFailed', err: error },
          'stream registration kept',
        ),
      )
      .finally(() => this.#unregistering.delete(unregistering));
    this.#unregistering.add(unregistering);
  }
}
