/**
 * SQL of the geographic media lists but nearby (nearby.repository.ts): recommended around a centre
 * (through the media_earth_position GiST index), trending (likes in a window), and the media of a
 * map box. Only media placed in public count (geo-sql.ts).
 */
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { earthPointOf } from '../../platform/db/earth-point.ts';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { longitudeSpans } from '../../platform/db/longitude-spans.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { byKey, PreparedPage, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { mediaFilterText, notHiddenByFilters } from '../filters/read-model.ts';
import { type ListedMedia, listedMediaColumns, mediaRows as media } from '../media/read-model.ts';
import { reactionRows as reactions } from '../reactions/read-model.ts';
import { aroundCentre, boxValues, inBoxPlaceholders, placedInPublic, placedOnMap, spansOf } from './geo-sql.ts';
import type { Box } from './map-grid.ts';

/** The centre and distance seen by the plans: the recommended list's plan depends on them (geo-sql.ts). */
const { distance, withinDistance } = aroundCentre('seen');

export interface Centre {
  latitude: number;
  longitude: number;
}

export type DistancedMedia = ListedMedia & { distance: number };
export type LikedMedia = ListedMedia & { windowLikes: number };

/** Most liked first, then newest id: the recommended list around a centre. */
export const recommendedKeyset = defineKeyset<DistancedMedia>({
  name: 'media-recommended',
  shape: ['int', 'uuid'],
  columns: [media.likesCount, media.id],
  keyOf: (row) => [row.likesCount, row.id],
});

/** A media's place in a trending ranking: its likes within the window. */
export interface RankedMedia {
  id: string;
  windowLikes: number;
}

/** Most liked in the window first, then by id (paged in memory over the ranking: trending-rankings.ts). */
export const trendingKeyset = defineKeyset<LikedMedia>({
  name: 'media-trending',
  shape: ['int', 'uuid'],
  columns: [],
  keyOf: (row) => [row.windowLikes, row.id],
});

const personalizations = ['all', 'hashtags'] as const;
const ofHashtags = (personalization: (typeof personalizations)[number]) =>
  personalization === 'hashtags' ? sql`${media.hashtags} && ${sql.placeholder('hashtags')}::text[]` : undefined;

/** The media whose id is in the `ids` placeholder (an array). */
const amongIds = sql`${media.id} = ANY(${sql.placeholder('ids')}::uuid[])`;

export class GeoMediaRepository extends Repository {
  readonly #recommended = byKey(
    personalizations,
    (personalization) =>
      new PreparedPage<DistancedMedia>(
        this.source,
        `discovery.recommended.${personalization}`,
        recommendedKeyset,
        (db, where, orderBy) =>
          db
            .select({ ...listedMediaColumns, distance })
            .from(media)
            .where(
              and(
                placedInPublic,
                withinDistance,
                ofHashtags(personalization),
                notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)),
                where,
              ),
            )
            .orderBy(...orderBy),
      ),
  );

  /** Media within `distanceMetres`, most liked first; with hashtags, only media carrying one of them. */
  recommended(
    at: Centre,
    distanceMetres: number,
    hashtags: string[] | null,
    page: PageRequest,
    hiddenBy: string[],
  ): Promise<DistancedMedia[]> {
    const statement = this.#recommended[hashtags === null ? 'all' : 'hashtags'];
    return statement.run(page, {
      centre: earthPointOf(at),
      distance: distanceMetres,
      hashtags: hashtags ?? [],
      hiddenBy,
    });
  }

  /**
   * The most liked media of a country since `since` (at most `max`), most likes first then id: what
   * trending pages through (trending-rankings.ts keeps it a minute). With hashtags, only media
   * carrying one of them.
   *
   * One join grouped by media, not the window's likes counted first and joined after: so PostgreSQL
   * chooses where to start. A country with few media is read first and its likes counted from
   * media_reactions_by_media, whatever the number of likes on the platform; one with many media, by
   * the window's likes hashed against its media. Counted first, every like of the
   * window on the platform was read for any country (docs/benchmarks.md, session 44).
   */
  async trendingRanking(
    countryCode: string,
    since: Date,
    hashtags: string[] | null,
    max: number,
  ): Promise<RankedMedia[]> {
    const windowLikes = sql<number>`count(*)::int`;
    return this.replicaDb
      .select({ id: media.id, windowLikes })
      .from(media)
      .innerJoin(
        reactions,
        and(eq(reactions.mediaId, media.id), eq(reactions.type, 'like'), gte(reactions.createdAt, since)),
      )
      .where(
        and(
          placedInPublic,
          eq(media.countryCode, countryCode),
          hashtags === null ? undefined : sql`${media.hashtags} && ${sql.param(hashtags)}::text[]`,
        ),
      )
      .groupBy(media.id)
      .orderBy(desc(windowLikes), desc(media.id))
      .limit(max);
  }

  readonly #listedAmong = new PreparedRead<ListedMedia>(this.replicaSource, 'discovery.listedAmong', (db) =>
    db
      .select(listedMediaColumns)
      .from(media)
      .where(and(placedInPublic, amongIds, notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)))),
  );

  readonly #inBox = byKey(
    longitudeSpans,
    (spans) =>
      new PreparedRead<ListedMedia>(this.replicaSource, `discovery.inBox.${spans}`, (db) =>
        db
          .select(listedMediaColumns)
          .from(media)
          .where(and(placedOnMap, inBoxPlaceholders(spans, 'hidden')))
          .limit(sql.placeholder('limit')),
      ),
  );

  /** The media among `ids` still placed in public and not hidden by `hiddenBy`, as lists show them (in no particular order). */
  listedAmong(ids: string[], hiddenBy: string[]): Promise<ListedMedia[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.#listedAmong.run({ ids, hiddenBy });
  }

  /**
   * Up to `limit` media of a box, most liked first, or null when the box holds more than that (the
   * caller then shows clusters). The box's rectangle is read on media_map_position (migration 0270),
   * at most limit + 1 rows.
   */
  async inBox(box: Box, limit: number): Promise<ListedMedia[] | null> {
    const rows = await this.#inBox[spansOf(box)].run({ ...boxValues(box), limit: limit + 1 });
    if (rows.length > limit) return null;
    return rows.sort((a, b) => b.likesCount - a.likesCount || (a.id < b.id ? 1 : -1));
  }
}
