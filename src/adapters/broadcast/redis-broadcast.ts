/**
 * Broadcast over Redis pub/sub (when REDIS_URL is set): one connection publishes, one subscribes.
 * ioredis re-subscribes after a reconnect; each (re)connection is reported as a gap.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Broadcast } from './broadcast.ts';
import { Subscribers } from './subscribers.ts';

export class RedisBroadcast implements Broadcast {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #subscribers = new Subscribers();
  private readonly prefix: string;
  private readonly logger: Logger;

  constructor(url: string, logger: Logger, prefix = 'tms:') {
    this.prefix = prefix;
    this.logger = logger;
    // A publish waits at most a second for Redis (a logout must not hang on it); a lost message is
    // made up for by the subscribers' gap (they drop their caches when they reconnect) and the TTLs.
    this.#publisher = new Redis(url, { maxRetriesPerRequest: 2, commandTimeout: 1000 });
    this.#subscriber = new Redis(url, { maxRetriesPerRequest: null });
    for (const connection of [this.#publisher, this.#subscriber]) {
      connection.on('error', (error) => logger.warn({ event: 'broadcast.redisError', err: error }, 'redis broadcast'));
    }
    this.#subscriber.on('message', (channel: string, message: string) => this.#subscribers.deliver(channel, message));
    this.#subscriber.on('ready', () => this.#subscribers.gap());
  }

  async publish(channel: string, message: string): Promise<void> {
    try {
      await this.#publisher.publish(this.prefix + channel, message);
    } catch (error) {
      this.logger.warn({ event: 'broadcast.publishFailed', channel, err: error }, 'broadcast not sent');
    }
  }

  subscribe(channel: string, onMessage: (message: string) => void, onGap: () => void): void {
    const name = this.prefix + channel;
    if (!this.#subscribers.add(name, onMessage, onGap)) return;
    this.#subscriber.subscribe(name).catch((error) => {
      this.logger.warn({ event: 'broadcast.subscribeFailed', channel, err: error }, 'broadcast subscription failed');
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#publisher.quit(), this.#subscriber.quit()]);
  }
}
