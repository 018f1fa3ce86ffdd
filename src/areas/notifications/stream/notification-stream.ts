/**
 * One open stream: the text/event-stream body of one client. It sends what changed since its
 * position, read from the database, whenever it is woken (at start: the replay; then each broadcast
 * that the owner's feed changed): the notifications after its position in position order, then the
 * unread count when it differs from the last one sent. Runs are one at a time; a wake-up during a run
 * makes one more run, so nothing committed before a wake-up is missed and nothing is sent twice.
 */
import { PassThrough } from 'node:stream';
import type { Locale } from '../../../platform/i18n/i18n.ts';
import type { FiltersService } from '../../filters/public.ts';
import { notificationFilterTextOf } from '../../filters/read-model.ts';
import { presentNotification } from '../presenters.ts';
import { formatEventId, type StreamStart } from './event-ids.ts';
import type { StreamRepository } from './stream.repository.ts';

/** How long a client waits before reconnecting (the `retry:` field). */
export const reconnectDelayMs = 3000;
/** Rows read per statement of a replay (a large one is read and written batch by batch, as the client takes it). */
const batchRows = 100;

export interface StreamReads {
  repository: StreamRepository;
  filters: FiltersService;
  unreadCount(ownerId: string): Promise<number>;
  logger: { warn(object: object, message: string): void };
}

export interface StreamOwner {
  id: string;
  userId: string;
  sessionId: string;
  locale: Locale;
}

export class NotificationStream {
  readonly owner: StreamOwner;
  /** The body Fastify sends. */
  readonly body = new PassThrough();
  readonly #reads: StreamReads;
  readonly #start: StreamStart;
  #position = 0;
  #count: number | null = null;
  #started = false;
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  readonly #onClose: () => void;

  constructor(owner: StreamOwner, start: StreamStart, reads: StreamReads, onClose: () => void) {
    this.owner = owner;
    this.#start = start;
    this.#reads = reads;
    this.#onClose = onClose;
    this.body.on('close', () => this.close());
    this.body.write(`retry: ${reconnectDelayMs}\n\n`);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends what changed since the last run (the first run is the replay). */
  wake(): void {
    if (this.#closed) return;
    if (this.#running !== null) {
      this.#again = true;
      return;
    }
    this.#running = this.#run().finally(() => {
      this.#running = null;
    });
  }

  /** A comment line that keeps proxies and clients from timing the connection out. */
  heartbeat(): void {
    if (!this.#closed) this.body.write(': heartbeat\n\n');
  }

  /** Ends the body (the client reconnects with its Last-Event-ID); idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.body.end();
    this.#onClose();
  }

  async #run(): Promise<void> {
    try {
      if (!this.#started) {
        this.#started = true;
        const last = await this.#reads.repository.lastPosition(this.owner.userId);
        // An id ahead of the owner's last position was not sent by this service: it counts as the last.
        this.#position = this.#start.after === 'last' ? last : Math.min(this.#start.after, last);
      }
      do {
        this.#again = false;
        await this.#sendChanges();
      } while (this.#again && !this.#closed);
    } catch (error) {
      // The database failed under a stream: end it, the client comes back with its Last-Event-ID.
      this.#reads.logger.warn({ event: 'notifications.streamFailed', err: error }, 'notification stream ended');
      this.close();
    }
  }

  async #sendChanges(): Promise<void> {
    const { repository, filters } = this.#reads;
    const { userId, locale } = this.owner;
    const hiddenBy = await filters.hiddenFor(userId, 'notifications');
    for (;;) {
      const rows = await repository.rowsAfter(userId, this.#position, batchRows, hiddenBy);
      const warned = await filters.warn(userId, 'notifications', rows, (row) => notificationFilterTextOf(row.data));
      for (const row of warned) {
        if (this.#closed) return;
        this.#position = row.streamSeq;
        await this.#send('notification', presentNotification(row, locale));
      }
      if (rows.length < batchRows) break;
    }
    const count = await this.#reads.unreadCount(userId);
    if (count !== this.#count && !this.#closed) {
      this.#count = count;
      await this.#send('unreadCount', { type: 'notificationUnreadCount', id: userId, attributes: { count } });
    }
  }

  /** One event; waits while the client is slower than the stream (or until it is gone). */
  async #send(event: string, data: unknown): Promise<void> {
    if (this.#closed) return;
    const id = formatEventId(this.#position, this.owner.userId);
    if (this.body.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.body.off('drain', done);
        this.body.off('close', done);
        resolve();
      };
      this.body.on('drain', done);
      this.body.on('close', done);
    });
  }
}
