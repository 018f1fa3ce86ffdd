/**
 * Broadcast over PostgreSQL LISTEN/NOTIFY (PostgreSQL without Redis). LISTEN needs a session of its
 * own, so it runs on a dedicated connection to the direct URL (DATABASE_MIGRATION_URL when a pooler
 * in transaction mode stands in front, since such a pooler cannot keep a LISTEN); NOTIFY goes through
 * the pool. The listening connection reconnects by itself, every reconnection reported as a gap.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import type { Broadcast } from './broadcast.ts';
import { Subscribers } from './subscribers.ts';

const retryMs = { first: 500, max: 15_000 };

export class PostgresBroadcast implements Broadcast {
  readonly #subscribers = new Subscribers();
  #listener: pg.Client | null = null;
  /** The listener has connected and listens to every channel subscribed so far. */
  #listening = false;
  /** LISTENs issued one after the other: a pg client runs one query at a time. */
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #retry: NodeJS.Timeout | null = null;
  private readonly pool: pg.Pool;
  private readonly directUrl: string;
  private readonly logger: Logger;
  private readonly prefix: string;

  constructor(pool: pg.Pool, directUrl: string, logger: Logger, prefix = 'tms.') {
    this.pool = pool;
    this.directUrl = directUrl;
    this.logger = logger;
    this.prefix = prefix;
  }

  async publish(channel: string, message: string): Promise<void> {
    try {
      await this.pool.query('SELECT pg_notify($1, $2)', [this.prefix + channel, message]);
    } catch (error) {
      this.logger.warn({ event: 'broadcast.publishFailed', channel, err: error }, 'broadcast not sent');
    }
  }

  subscribe(channel: string, onMessage: (message: string) => void, onGap: () => void): void {
    const name = this.prefix + channel;
    if (!this.#subscribers.add(name, onMessage, onGap)) return;
    if (this.#listener === null) void this.#connect(retryMs.first);
    // While it connects, the listener's own loop reaches the new channel; once it listens, the
    // LISTEN waits for the one before it.
    else if (this.#listening) this.#listen(this.#listener, name);
  }

  #unlistened(listened: Set<string>): string | undefined {
    return this.#subscribers.channels.find((name) => !listened.has(name));
  }

  #listen(client: pg.Client, name: string): void {
    this.#queue = this.#queue.then(() => client.query(`LISTEN ${pg.escapeIdentifier(name)}`)).catch(() => {});
  }

  async #connect(nextDelayMs: number): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.directUrl });
    this.#listener = client;
    this.#listening = false;
    const reconnect = () => {
      if (this.#closed || this.#listener !== client || this.#retry !== null) return;
      this.#retry = setTimeout(() => {
        this.#retry = null;
        void this.#connect(Math.min(nextDelayMs * 2, retryMs.max));
      }, nextDelayMs);
      this.#retry.unref();
    };
    client.on('error', (error) => {
      if (this.#closed) return;
      this.logger.warn({ event: 'broadcast.listenerError', err: error }, 'broadcast listener lost');
      reconnect();
    });
    client.on('end', reconnect);
    client.on('notification', ({ channel, payload }) => this.#subscribers.deliver(channel, payload ?? ''));
    try {
      await client.connect();
      // Channels subscribed while this runs are taken too, until none is left.
      const listened = new Set<string>();
      for (let name = this.#unlistened(listened); name !== undefined; name = this.#unlistened(listened)) {
        await client.query(`LISTEN ${pg.escapeIdentifier(name)}`);
        listened.add(name);
      }
      if (this.#listener === client) this.#listening = true;
      nextDelayMs = retryMs.first;
      this.#subscribers.gap();
    } catch (error) {
      // Closed while connecting (a short CLI command ends): the LISTEN it cut short is no failure.
      if (this.#closed) return;
      this.logger.warn({ event: 'broadcast.listenerError', err: error }, 'broadcast listener cannot connect');
      client.end().catch(() => {});
      reconnect();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    await this.#listener?.end().catch(() => {});
  }
}
