/**
 * All SQL of the geographic media lists: nearby and recommended (around a centre, through the
 * media_earth_position GiST index), trending (likes in a window), and the media of a map box. Only
 * media placed in public count: published, unflagged posts with a public position, of owners who
 * are not banned.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { byKey, PreparedPage } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { defineKeyset, keyset, type PageRequest } from '../../platform/http/pagination.ts';
import { userRows as users } from '../accounts/read-model.ts';
import { type ListedMedia, listedMediaColumns, mediaRows as media, mediaListedFor } from '../media/read-model.ts';
import { reactionRows as reactions } from '../reactions/read-model.ts';
import type { Box } from './map-grid.ts';

export interface Centre {
  latitude: number;
  longitude: number;
}

export type DistancedMedia = ListedMedia & { distance: number };
export type LikedMedia = ListedMedia & { windowLikes: number };

/** The one rule of every geographic list (the owner's ban is checked in the join). */
export const placedInPublic: SQL = and(
  mediaListedFor(null),
  eq(media.locationPublic, true),
  isNotNull(media.latitude),
  isNotNull(media.longitude),
)!;
const ownerNotBanned = and(eq(users.id, media.ownerId), isNull(users.bannedAt))!;

const centre = sql`ll_to_earth(${sql.placeholder('latitude')}, ${sql.placeholder('longitude')})`;
const position = sql`ll_to_earth(${media.latitude}, ${media.longitude})`;
/** Great-circle metres from the centre (earthdistance's sphere). */
const distance = sql<number>`earth_distance(${centre}, ${position})`;
/** Within `distance` metres: the box through the index, then the exact distance. */
const withinDistance = sql`earth_box(${centre}, ${sql.placeholder('distance')}) @> ${position} AND ${distance} <= ${sql.placeholder('distance')}`;

/** Nearest first: the key is the negated distance, so the shared newest-first keyset orders it. */
export const nearbyKeyset = defineKeyset<DistancedMedia>({
  name: 'media-nearby',
  shape: ['number', 'uuid'],
  columns: [sql`-${distance}`, media.id],
  keyOf: (row) => [-row.distance, row.id],
});

/** Most liked first, then newest id: the recommended list around a centre. */
export const recommendedKeyset = defineKeyset<DistancedMedia>({
  name: 'media-recommended',
  shape: ['int', 'uuid'],
  columns: [media.likesCount, media.id],
  keyOf: (row) => [row.likesCount, row.id],
});

/** Most liked in the window first. */
export const trendingKeyset = defineKeyset<LikedMedia>({
  name: 'media-trending',
  shape: ['int', 'uuid'],
  columns: [sql`recent.likes`, media.id],
  keyOf: (row) => [row.windowLikes, row.id],
});

const personalizations = ['all', 'hashtags'] as const;
const ofHashtags = (personalization: (typeof personalizations)[number]) =>
  personalization === 'hashtags' ? sql`${media.hashtags} && ${sql.placeholder('hashtags')}::text[]` : undefined;

export class GeoMediaRepository extends Repository {
  readonly #nearby = new PreparedPage<DistancedMedia>(
    this.source,
    'discovery.nearby',
    nearbyKeyset,
    (db, where, orderBy) =>
      db
        .select({ ...listedMediaColumns, distance })
        .from(media)
        .innerJoin(users, ownerNotBanned)
        .where(and(placedInPublic, withinDistance, where))
        .orderBy(...orderBy),
  );

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
            .innerJoin(users, ownerNotBanned)
            .where(and(placedInPublic, withinDistance, ofHashtags(personalization), where))
            .orderBy(...orderBy),
      ),
  );

  /** Media within `distanceMetres` of the centre, nearest first (limit + 1 rows of the page). */
  nearby(at: Centre, distanceMetres: number, page: PageRequest): Promise<DistancedMedia[]> {
    return this.#nearby.run(page, { ...at, distance: distanceMetres });
  }

  /** Media within `distanceMetres`, most liked first; with hashtags, only media carrying one of them. */
  recommended(
    at: Centre,
    distanceMetres: number,
    hashtags: string[] | null,
    page: PageRequest,
  ): Promise<DistancedMedia[]> {
    const statement = this.#recommended[hashtags === null ? 'all' : 'hashtags'];
    return statement.run(page, { ...at, distance: distanceMetres, hashtags: hashtags ?? [] });
  }

  /** Media of a country by likes received since `since`; with hashtags, only media carrying one of them. */
  async trending(
    countryCode: string,
    since: Date,
    hashtags: string[] | null,
    page: PageRequest,
  ): Promise<LikedMedia[]> {
    const recent = this.db
      .select({ mediaId: reactions.mediaId, likes: sql<number>`count(*)::int`.as('likes') })
      .from(reactions)
      .where(and(eq(reactions.type, 'like'), gte(reactions.createdAt, since)))
      .groupBy(reactions.mediaId)
      .as('recent');
    const { where, orderBy } = keyset(trendingKeyset, page);
    return this.db
      .select({ ...listedMediaColumns, windowLikes: sql<number>`recent.likes` })
      .from(recent)
      .innerJoin(media, eq(media.id, recent.mediaId))
      .innerJoin(users, ownerNotBanned)
      .where(
        and(
          placedInPublic,
          eq(media.countryCode, countryCode),
          hashtags === null ? undefined : sql`${media.hashtags} && ${sql.param(hashtags)}::text[]`,
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /**
   * Up to `limit` media of a box, most liked first, or null when the box holds more than that (the
   * caller then shows clusters). It reads at most limit + 1 rows of the position index.
   */
  async inBox(box: Box, limit: number): Promise<ListedMedia[] | null> {
    const rows = await this.db
      .select(listedMediaColumns)
      .from(media)
      .innerJoin(users, ownerNotBanned)
      .where(and(placedInPublic, boxFilter(box)))
      .limit(limit + 1);
    if (rows.length > limit) return null;
    return rows.sort((a, b) => b.likesCount - a.likesCount || (a.id < b.id ? 1 : -1));
  }

  /** The media among `ids` still placed in public (cluster representatives, read live). */
  async placedInPublicAmong(ids: string[]): Promise<ListedMedia[]> {
    if (ids.length === 0) return [];
    return this.db
      .select(listedMediaColumns)
      .from(media)
      .innerJoin(users, ownerNotBanned)
      .where(and(placedInPublic, inArray(media.id, ids)));
  }
}

/** Latitude between south and north; longitude between west and east, or around the antimeridian. */
export function boxFilter(box: Box): SQL {
  const longitude =
    box.west > box.east
      ? or(gte(media.longitude, box.west), lte(media.longitude, box.east))
      : and(gte(media.longitude, box.west), lte(media.longitude, box.east));
  return and(gte(media.latitude, box.south), lte(media.latitude, box.north), longitude)!;
}
