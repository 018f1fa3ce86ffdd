/** Hashtag discovery: suggestions, trending and related tags, read from the tables the rebuild keeps. */

import type { Purgeable } from '../../platform/cache/cache-registry.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { Slots } from '../../platform/concurrency/slots.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { isSearchable } from '../../platform/text/searchable.ts';
import { normaliseTagQuery } from './hashtag-query.ts';
import type {
  HashtagsRepository,
  RebuildCounts,
  RelatedRow,
  SuggestionRow,
  TrendingRow,
} from './hashtags.repository.ts';

/** Added to both windows' uses in the trending score, so a tag going from 0 to 1 use scores only 6/5. */
export const trendingSmoothing = 5;

/**
 * Trending pages are kept a minute per instance: they aggregate up to 180 days of counts. A media
 * event shows there within that minute; a run of the job clears this instance's copies.
 */
const trendingCacheMs = 60_000;

export interface HashtagsServiceDeps {
  transactions: Transactions;
  repository: HashtagsRepository;
  clock: Clock;
}

export class HashtagsService {
  readonly #deps: HashtagsServiceDeps;

  readonly #trending: TtlCache<string, Promise<TrendingRow[]>>;

  constructor(deps: HashtagsServiceDeps) {
    this.#deps = deps;
    this.#trending = new TtlCache(deps.clock, trendingCacheMs, 1_000);
  }

  /** The trending pages kept in memory, for the cache registry (POST /admin/cache/purge). */
  get cache(): Purgeable {
    return this.#trending;
  }

  /** Trending computations at once on this instance. */
  readonly #computeSlots = new Slots(2);

  /** Tags starting with `q` (accents and case ignored), then tags similar to it, each group by uses. */
  /** Nothing, without a statement, for a query with no letter or digit (isSearchable): no tag has none. */
  async suggest(q: string, page: PageRequest): Promise<SuggestionRow[]> {
    const tag = normaliseTagQuery(q, 'q');
    return isSearchable(tag) ? this.#deps.repository.suggestions(tag, page) : [];
  }

  /**
   * Tags growing in the last `windowDays` UTC days (today included) against the as many days before.
   * First pages are kept a minute; pages after a cursor (whose positions a client chooses) are not, and
   * every computation waits for one of a few slots, so no client can keep the database busy with them.
   */
  trending(windowDays: number, page: PageRequest): Promise<TrendingRow[]> {
    const today = this.#deps.clock.now().toISOString().slice(0, 10);
    const compute = () =>
      this.#computeSlots.run(() => this.#deps.repository.trending(today, windowDays, trendingSmoothing, page));
    if (page.direction !== 'first') return compute();
    const key = JSON.stringify([today, windowDays, page.limit]);
    const cached = this.#trending.get(key);
    if (cached) return cached;
    const rows = compute();
    this.#trending.set(key, rows);
    rows.catch(() => this.#trending.delete(key));
    return rows;
  }

  /** Tags sharing listed posts with `tag`; an unknown tag has none. */
  related(tag: string, page: PageRequest): Promise<RelatedRow[]> {
    return this.#deps.repository.related(normaliseTagQuery(tag, 'tag'), page);
  }

  /**
   * After a media event: makes the counts hold the post as it is now (listed with its tags, or not
   * at all), by taking out what they held of it and adding what it is. Reading the post again, not
   * the event's copy, makes events that arrive out of order harmless.
   */
  resync(mediaId: string): Promise<void> {
    return this.#deps.transactions.run(async () => {
      const counted = await this.#deps.repository.lockCounted(mediaId);
      const now = await this.#deps.repository.listedPost(mediaId);
      if (counted.day !== now.day || counted.tags.join(' ') !== now.tags.join(' ')) {
        await this.#deps.repository.count(counted, -1);
        await this.#deps.repository.count(now, 1);
      }
      await this.#deps.repository.setCounted(mediaId, now);
    });
  }

  /**
   * After a ban, a confirmed account deletion or their end (`user.banned`, `user.unbanned`): each of
   * the owner's tagged posts resynced, one transaction a post as for a media event.
   */
  async resyncOwner(ownerId: string): Promise<void> {
    for (const mediaId of await this.#deps.repository.taggedMediaIdsOf(ownerId)) await this.resync(mediaId);
  }

  /** The hashtags job: rebuilds the tables from media in one transaction (idempotent). */
  async rebuild(): Promise<Record<'dailyUses' | 'totals' | 'pairs' | 'countedMedia', RebuildCounts>> {
    const counts = await this.#deps.transactions.run(async () => {
      await this.#deps.repository.allowLargeSorts();
      return {
        dailyUses: await this.#deps.repository.rebuildDailyUses(),
        totals: await this.#deps.repository.rebuildTotals(),
        pairs: await this.#deps.repository.rebuildPairs(),
        countedMedia: await this.#deps.repository.rebuildCountedMedia(),
      };
    });
    this.#trending.clear();
    return counts;
  }
}
