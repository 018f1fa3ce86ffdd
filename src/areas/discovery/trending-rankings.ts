/**
 * Trending rankings, kept a minute per instance: counting a week of likes over a country's media is a
 * few hundred milliseconds at a million media, and a ranking need not be fresher than that. Each
 * (country, window, hashtags) ranking is computed once at a time (concurrent requests share it), holds
 * the top `rankingSize` media, and is paged in memory; the page's media are then read live, so one that
 * left public view since is never shown.
 */

import type { Purgeable } from '../../platform/cache/cache-registry.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { Slots } from '../../platform/concurrency/slots.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { GeoMediaRepository, LikedMedia, RankedMedia } from './geo-media.repository.ts';

export const trendingRanking = { seconds: 60, size: 1000, kept: 2000, computedAtOnce: 2 } as const;

export interface TrendingQuery {
  country: string;
  since: Date;
  windowDays: number;
  hashtags: string[] | null;
}

/** Where an entry stands against a position of the ranking (likes, then id, descending): after it when positive. */
const rankAgainst = (entry: RankedMedia, likes: number, id: string) =>
  likes - entry.windowLikes || (entry.id < id ? 1 : entry.id > id ? -1 : 0);

/** What the viewer leaves out of a page: their hidden users (blocks and mutes) and their filters' `hide` keywords. */
export interface TrendingViewer {
  hidden?: ReadonlySet<string>;
  hiddenBy?: string[];
}

export class TrendingRankings {
  private readonly media: GeoMediaRepository;
  readonly #rankings: TtlCache<string, RankedMedia[]>;
  readonly #computing = new Map<string, Promise<RankedMedia[]>>();
  /** Rankings computed at once on this instance: a client asking for many (country, window) pairs queues. */
  readonly #computeSlots = new Slots(trendingRanking.computedAtOnce);

  constructor(media: GeoMediaRepository, clock: Clock) {
    this.media = media;
    this.#rankings = new TtlCache(clock, trendingRanking.seconds * 1000, trendingRanking.kept);
  }

  /** The rankings kept in memory, for the cache registry (POST /admin/cache/purge). */
  get cache(): Purgeable {
    return this.#rankings;
  }

  /**
   * limit + 1 media of the page, in the order pageOf expects (backwards for a 'before' page), skipping
   * those that left public view since the ranking was made, those the viewer's filters hide (`hiddenBy`, in
   * the statement) and those of the viewer's hidden users (`hidden`, blocks and mutes, in memory): the page
   * stays full.
   */
  async page(
    query: TrendingQuery,
    page: PageRequest,
    { hidden = new Set(), hiddenBy = [] }: TrendingViewer = {},
  ): Promise<LikedMedia[]> {
    const entries = entriesOfPage(await this.#ranking(query), page);
    const wanted = page.limit + 1;
    const shown: LikedMedia[] = [];
    // The page's own media first (usually all still shown); then, if some left public view, chunks of
    // 50 at least: a page whose ranked media mostly left reads a few chunks, not one statement per media.
    for (let next = 0; shown.length < wanted && next < entries.length; ) {
      const chunk = entries.slice(next, next + (next === 0 ? wanted : Math.max(wanted, 50)));
      next += chunk.length;
      const rows = new Map(
        (
          await this.media.listedAmong(
            chunk.map((entry) => entry.id),
            hiddenBy,
          )
        ).map((row) => [row.id, row]),
      );
      for (const entry of chunk) {
        const row = rows.get(entry.id);
        // The row was read for this page alone: its likes in the window are added to it, not to a copy.
        if (row !== undefined && !hidden.has(row.ownerId) && shown.length < wanted)
          shown.push(Object.assign(row, { windowLikes: entry.windowLikes }));
      }
    }
    return shown;
  }

  #ranking(query: TrendingQuery): Promise<RankedMedia[]> {
    const key = [query.country, query.windowDays, ...(query.hashtags ?? ['*'])].join('|');
    const cached = this.#rankings.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let computing = this.#computing.get(key);
    if (computing === undefined) {
      computing = this.#computeSlots
        .run(() => this.media.trendingRanking(query.country, query.since, query.hashtags, trendingRanking.size))
        .then((ranking) => {
          this.#rankings.set(key, ranking);
          return ranking;
        })
        .finally(() => this.#computing.delete(key));
      this.#computing.set(key, computing);
    }
    return computing;
  }
}

/** The ranking's entries after the cursor, or before it read backwards (all of them: page() takes what it needs). */
export function entriesOfPage(ranking: RankedMedia[], page: PageRequest): RankedMedia[] {
  if (page.position === null) return ranking;
  const [likes, id] = page.position as [number, string];
  if (page.direction === 'after') return ranking.filter((entry) => rankAgainst(entry, likes, id) > 0);
  return ranking.filter((entry) => rankAgainst(entry, likes, id) < 0).reverse();
}
