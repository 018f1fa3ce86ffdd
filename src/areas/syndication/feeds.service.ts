/**
 * Feeds as served: each (kind, key, locale, format) document is kept a minute per instance (a feed
 * reader polls; the newest 20 public photos need not be fresher than that), built once at a time per
 * key and at most two at once (a client varying names cannot keep the database busy), with a strong
 * ETag (the document's SHA-256) and Last-Modified (its newest entry).
 */
import { createHash } from 'node:crypto';
import type { Purgeable } from '../../platform/cache/cache-registry.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { Slots } from '../../platform/concurrency/slots.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { FeedFormat } from './feed.ts';
import type { FeedSources } from './feed-sources.ts';
import { feedXml } from './feed-xml.ts';

export const feedCache = { seconds: 60, kept: 2000, builtAtOnce: 2 } as const;

export interface ServedFeed {
  body: string;
  etag: string;
  lastModified: Date;
}

export interface FeedsServiceDeps {
  sources: FeedSources;
  clock: Clock;
}

export class FeedsService {
  readonly #deps: FeedsServiceDeps;
  readonly #served: TtlCache<string, ServedFeed | null>;
  readonly #building = new Map<string, Promise<ServedFeed | null>>();
  readonly #slots = new Slots(feedCache.builtAtOnce);

  constructor(deps: FeedsServiceDeps) {
    this.#deps = deps;
    this.#served = new TtlCache(deps.clock, feedCache.seconds * 1000, feedCache.kept);
  }

  /** Where areas register a kind of feed. */
  get sources(): FeedSources {
    return this.#deps.sources;
  }

  /** The documents kept in memory, for the cache registry (POST /admin/cache/purge). */
  get cache(): Purgeable {
    return this.#served;
  }

  /** The feed's document; null when its source has nothing public by that key. */
  async serve(
    kind: string,
    key: string,
    format: FeedFormat,
    locale: Locale,
    baseUrl: string,
  ): Promise<ServedFeed | null> {
    const cacheKey = JSON.stringify([kind, key.toLowerCase(), format, locale]);
    const cached = this.#served.get(cacheKey);
    if (cached !== undefined) return cached;
    const pending = this.#building.get(cacheKey);
    if (pending !== undefined) return pending;
    const building = this.#slots
      .run(() => this.#build(kind, key, format, locale, baseUrl))
      .then((served) => {
        this.#served.set(cacheKey, served);
        return served;
      })
      .finally(() => this.#building.delete(cacheKey));
    this.#building.set(cacheKey, building);
    return building;
  }

  async #build(kind: string, key: string, format: FeedFormat, locale: Locale, baseUrl: string) {
    const feed = await this.#deps.sources.require(kind).load(key, locale);
    if (feed === null) return null;
    const body = feedXml(format, feed, baseUrl);
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
    return { body, etag, lastModified: feed.updated };
  }
}
