/**
 * The in-process caches of this instance by name, for POST /admin/cache/purge. Each owner registers
 * its cache once (`platform.caches.register('media.servable', cache)`); a purge empties the named
 * caches here and tells every other instance through the platform broadcast (Redis pub/sub, else
 * PostgreSQL NOTIFY, else in-process), which empty theirs on receipt. Delivery is at most once, so an
 * instance whose subscription (re)connects empties every cache (a purge may have been sent while it
 * was cut off: a purge during a Redis outage reaches it when Redis is back); one cut off from the
 * broadcast without noticing keeps its entries until their TTL ends, as after any change.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Broadcast } from '../../adapters/broadcast/index.ts';
import type { CacheLookups } from './ttl-cache.ts';

/** What a purge needs of a cache: TtlCache, the session cache and the stats snapshot have it. */
export interface Purgeable {
  readonly size: number;
  clear(): void;
  /** Its lookups so far, when it counts them (TtlCache does), for the metrics. */
  readonly lookups?: CacheLookups;
}

export interface Purged {
  name: string;
  /** Entries this instance held when it emptied the cache. */
  entries: number;
}

const channel = 'caches.purge';

export class CacheRegistry {
  readonly #caches = new Map<string, Purgeable>();
  /** Tells this instance's own messages apart: it purged already when it sent them. */
  readonly #instance = randomUUID();
  private readonly broadcast: Broadcast;
  private readonly logger: FastifyBaseLogger;

  constructor(broadcast: Broadcast, logger: FastifyBaseLogger) {
    this.broadcast = broadcast;
    this.logger = logger;
    broadcast.subscribe(
      channel,
      (message) => this.#received(message),
      () => this.#missedMessages(),
    );
  }

  register(name: string, cache: Purgeable): void {
    if (this.#caches.has(name)) throw new Error(`cache ${name} is registered twice`);
    this.#caches.set(name, cache);
  }

  /** The lookups of every cache that counts them, by name. */
  lookups(): Array<{ name: string } & CacheLookups> {
    return [...this.#caches].flatMap(([name, cache]) => (cache.lookups ? [{ name, ...cache.lookups }] : []));
  }

  /** The registered names, sorted. */
  names(): string[] {
    return [...this.#caches.keys()].sort();
  }

  /** What a scope may be: a cache's name, or its area (the part before the first dot). */
  scopes(): string[] {
    const areas = this.names().flatMap((name) => (name.includes('.') ? [name.slice(0, name.indexOf('.'))] : []));
    return [...new Set([...this.names(), ...areas])].sort();
  }

  /** The caches a scope names (all of them for null); empty for an unknown scope. */
  matching(scope: string | null): string[] {
    return this.names().filter((name) => scope === null || name === scope || name.startsWith(`${scope}.`));
  }

  /** Empties the caches of a scope here and, through the broadcast, on every other instance. */
  async purge(scope: string | null): Promise<Purged[]> {
    const purged = this.#clear(scope);
    await this.broadcast.publish(channel, JSON.stringify({ from: this.#instance, scope }));
    return purged;
  }

  #clear(scope: string | null): Purged[] {
    return this.matching(scope).flatMap((name) => {
      const cache = this.#caches.get(name);
      if (cache === undefined) return [];
      const entries = cache.size;
      cache.clear();
      return [{ name, entries }];
    });
  }

  #missedMessages() {
    const purged = this.#clear(null).filter(({ entries }) => entries > 0);
    if (purged.length > 0)
      this.logger.info({ event: 'caches.purged', scope: null, purged }, 'caches emptied: purges may have been missed');
  }

  #received(message: string) {
    try {
      const { from, scope } = JSON.parse(message) as { from: string; scope: string | null };
      if (from === this.#instance) return;
      const purged = this.#clear(scope);
      this.logger.info({ event: 'caches.purged', scope, purged }, 'caches purged by another instance');
    } catch (error) {
      this.logger.warn({ event: 'caches.badPurgeMessage', err: error }, 'unreadable purge message');
    }
  }
}
