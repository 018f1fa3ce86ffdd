/** Hashtag discovery: suggestions, trending and related tags, read from the tables the rebuild keeps. */

import type { Purgeable } from '../../platform/cache/cache-registry.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { Slots } from '../../platform/concurrency/slots.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { SyncCounts } from '../../platform/db/table-sync.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { isSearchable } from '../../platform/text/searchable.ts';
import { type CountedPost, type CountedPostsRepository, uncounted } from './counted-posts.repository.ts';
import { normaliseTagQuery } from './hashtag-query.ts';
import type { HashtagsRepository, RelatedRow, SuggestionRow, TrendingRow } from './hashtags.repository.ts';

/** Posts resynced in one transaction after an owner's ban or its end. */
const resyncBatch = 500;

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
  counts: CountedPostsRepository;
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
   * After media events: makes the counts hold the posts as they are now (listed with their tags, or not
   * at all), by taking out what they held of each and adding what each is, summed over the posts.
   * Reading the posts again, not the events' copies, makes events that arrive out of order harmless.
   */
  resync(mediaIds: readonly string[]): Promise<void> {
    return this.#deps.transactions.run(async () => {
      await this.#deps.counts.boundLockWaits();
      const counted = await this.#deps.counts.lockCounted(mediaIds);
      const now = await this.#deps.counts.listedPosts(mediaIds);
      const changed = mediaIds.flatMap((id) => {
        const [before, after] = [counted.get(id) ?? uncounted, now.get(id) ?? uncounted];
        return sameCount(before, after) ? [] : [{ id, before, after }];
      });
      const [before, after] = [changed.map((post) => post.before), changed.map((post) => post.after)];
      await this.#deps.counts.lockCounts([...before, ...after]);
      await this.#deps.counts.count(before, -1);
      await this.#deps.counts.count(after, 1);
      // The changed posts' ledger rows, and the empty rows lockCounted made for posts not counted.
      const notCounted = mediaIds.filter((id) => !now.get(id)?.tags.length).map((id) => ({ id, post: uncounted }));
      const counting = changed
        .filter(({ after }) => after.tags.length > 0)
        .map(({ id, after }) => ({ id, post: after }));
      await this.#deps.counts.setCounted([...notCounted, ...counting]);
    });
  }

  /**
   * After a ban, a confirmed account deletion or their end (`user.banned`, `user.unbanned`): the
   * owner's tagged posts resynced, `resyncBatch` a transaction.
   */
  async resyncOwner(ownerId: string): Promise<void> {
    const ids = await this.#deps.counts.taggedMediaIdsOf(ownerId);
    for (let start = 0; start < ids.length; start += resyncBatch)
      await this.resync(ids.slice(start, start + resyncBatch));
  }

  /** The hashtags job: rebuilds the tables from media in one transaction (idempotent). */
  async rebuild(): Promise<Record<'dailyUses' | 'totals' | 'pairs' | 'countedMedia', SyncCounts>> {
    const counts = await this.#deps.transactions.run(async () => {
      await this.#deps.repository.beginRebuild();
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

/** Whether two states of a post count the same: the same tags, on the same day when it has any. */
const sameCount = (a: CountedPost, b: CountedPost) =>
  a.tags.join(' ') === b.tags.join(' ') && (a.tags.length === 0 || a.day === b.day);
