/**
 * What the pages read in their own statements: public media with their owners and places, counts by
 * country and city, names for a batch of ids. The web area owns no table: it reads media, users and
 * geography through their read models only (their visibility rules included) and never writes.
 */
import { and, count, desc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { allOf } from '../../platform/db/conditions.ts';
import type { Db } from '../../platform/db/database.ts';
import { newestFirst } from '../../platform/db/keyset.ts';
import { literal } from '../../platform/db/literals.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { byKey, PreparedPage, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { activeUser, discoverableUser, userRows as users } from '../accounts/read-model.ts';
import { cityRows as cities, countryRows as countries } from '../geography/read-model.ts';
import { type ListedMedia, listedMediaColumns, mediaRows as media, mediaListedFor } from '../media/read-model.ts';

/** A media of a public list, with what its card shows: its owner's names and its place's name. */
export type ShownMedia = ListedMedia & {
  ownerUsername: string | null;
  ownerNickname: string | null;
  cityName: string | null;
};

export interface PlaceCount {
  cityId: string;
  cityName: string;
  countryCode: string;
  mediaCount: number;
}

export interface CountryCount {
  countryCode: string;
  nameEn: string;
  nameFr: string;
  mediaCount: number;
}

/** Media of a place (/travel), newest first. */
export const placeMediaKeyset = newestFirst<ShownMedia>('web-place-media', media);

/** Public media whose place their owner shows: the only ones a place may list or count. */
const placedInPublic = (): SQL =>
  allOf(mediaListedFor(null), eq(media.locationPublic, literal(true)), isNotNull(media.countryCode));

/** The signed-in viewer of a page, and the time their mutes are read at. */
export interface PageViewer {
  id: string;
  at: Date;
}

/** Listed media, for nobody or for the viewer of the statement (placeholders `viewerId` and `at`). */
const listedFor = (who: 'anonymous' | 'viewer'): SQL =>
  who === 'anonymous'
    ? mediaListedFor(null)
    : mediaListedFor(sql.placeholder('viewerId'), { kind: 'content', at: sql.placeholder('at') });

const shownColumns = {
  ...listedMediaColumns,
  ownerUsername: users.username,
  ownerNickname: users.nickname,
  // A place is shown only where its owner made the position public.
  cityName: sql<string | null>`CASE WHEN ${media.locationPublic} THEN ${cities.name} END`,
};

const shownMedia = (db: Db) =>
  db
    .select(shownColumns)
    .from(media)
    .innerJoin(users, eq(users.id, media.ownerId))
    .leftJoin(cities, eq(cities.id, media.cityId));

export class WebRepository extends Repository {
  /**
   * The home page's newest media: read on every visit, so prepared; for a signed-in viewer, a statement
   * of its own that leaves out the media of the users hidden from them (accounts' rule: blocks either
   * way and their mutes in force at `at`).
   */
  readonly #recent = byKey(
    ['anonymous', 'viewer'] as const,
    (who) =>
      new PreparedRead(this.source, `web.recentMedia.${who}`, (db) =>
        shownMedia(db)
          .where(and(listedFor(who), activeUser()))
          .orderBy(desc(media.createdAt), desc(media.id))
          .limit(sql.placeholder('limit')),
      ),
  );

  /** A country's media, or a city's: one prepared page per level and viewer. */
  readonly #placeMedia = byKey(['country', 'city'] as const, (level) =>
    byKey(
      ['anonymous', 'viewer'] as const,
      (who) =>
        new PreparedPage(this.source, `web.placeMedia.${level}.${who}`, placeMediaKeyset, (db, where, orderBy) =>
          shownMedia(db)
            .where(
              and(
                placedInPublic(),
                who === 'viewer' ? listedFor(who) : undefined,
                activeUser(),
                eq(media.countryCode, sql.placeholder('countryCode')),
                level === 'city' ? eq(media.cityId, sql.placeholder('cityId')) : undefined,
                where,
              ),
            )
            .orderBy(...orderBy),
        ),
    ),
  );

  /** The newest public media of active users, as the viewer (null: nobody signed in) may see them. */
  async recentMedia(limit: number, viewer: PageViewer | null = null): Promise<ShownMedia[]> {
    return viewer === null
      ? this.#recent.anonymous.run({ limit })
      : this.#recent.viewer.run({ limit, viewerId: viewer.id, at: viewer.at });
  }

  /** One page (limit + 1 rows) of the public media of a country, or of one of its cities. */
  async placeMedia(
    place: { countryCode: string; cityId: string | null },
    page: PageRequest,
    viewer: PageViewer | null = null,
  ): Promise<ShownMedia[]> {
    const statements = this.#placeMedia[place.cityId === null ? 'country' : 'city'];
    const values = { countryCode: place.countryCode, ...(place.cityId === null ? {} : { cityId: place.cityId }) };
    return viewer === null
      ? statements.anonymous.run(page, values)
      : statements.viewer.run(page, { ...values, viewerId: viewer.id, at: viewer.at });
  }

  /** Cities by their number of public media (of one country, or everywhere), most first. */
  async placeCounts(countryCode: string | null, limit: number): Promise<PlaceCount[]> {
    const mediaCount = count();
    return this.db
      .select({ cityId: cities.id, cityName: cities.name, countryCode: cities.countryCode, mediaCount })
      .from(media)
      .innerJoin(cities, eq(cities.id, media.cityId))
      .where(and(placedInPublic(), countryCode === null ? undefined : eq(media.countryCode, countryCode)))
      .groupBy(cities.id, cities.name, cities.countryCode)
      .orderBy(desc(mediaCount), cities.name, cities.id)
      .limit(limit);
  }

  /** Countries by their number of public media, most first. */
  async countryCounts(limit: number): Promise<CountryCount[]> {
    const mediaCount = count();
    return this.db
      .select({ countryCode: countries.alpha2, nameEn: countries.nameEn, nameFr: countries.nameFr, mediaCount })
      .from(media)
      .innerJoin(countries, eq(countries.alpha2, media.countryCode))
      .where(placedInPublic())
      .groupBy(countries.alpha2, countries.nameEn, countries.nameFr)
      .orderBy(desc(mediaCount), countries.alpha2)
      .limit(limit);
  }

  /** The public media a user's profile lists (the rule of GET /api/users/{userId}/media). */
  async publicPostCount(userId: string): Promise<number> {
    const [row] = await this.replicaDb
      .select({ count: sql<number>`count(*)::int` })
      .from(media)
      .where(and(eq(media.ownerId, userId), mediaListedFor(null)));
    return row?.count ?? 0;
  }

  /** Names of cities by id (for cards of media listed by another area's service). */
  async cityNames(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: cities.id, name: cities.name })
      .from(cities)
      .where(inArray(cities.id, [...new Set(ids)]));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Names of users by id, active ones only. */
  async ownerNames(ids: string[]): Promise<Map<string, { username: string | null; nickname: string | null }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: users.id, username: users.username, nickname: users.nickname })
      .from(users)
      .where(and(inArray(users.id, [...new Set(ids)]), activeUser()));
    return new Map(rows.map((row) => [row.id, { username: row.username, nickname: row.nickname }]));
  }

  /** Usernames of the profiles the sitemap lists: discoverable active users, newest first. */
  async sitemapProfiles(limit: number): Promise<{ username: string; updatedAt: Date }[]> {
    const rows = await this.db
      .select({ username: users.username, updatedAt: users.updatedAt })
      .from(users)
      .where(and(discoverableUser(), isNotNull(users.username)))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(limit);
    return rows.filter((row): row is { username: string; updatedAt: Date } => row.username !== null);
  }
}
