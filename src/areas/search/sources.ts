/**
 * What the index holds, as SQL over the owners' read models: which sources are public (only those
 * have a document) and the normalized texts of each. Matching ignores case and accents because the
 * texts are stored lower-cased and unaccented, and queries are normalized the same way (normalized()).
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import { allOf } from '../../platform/db/conditions.ts';
import { activeUser, discoverableUser, userRows as users } from '../accounts/read-model.ts';
import { cityRows as cities, countryRows as countries } from '../geography/read-model.ts';
import { mediaRows as media, mediaListedFor } from '../media/read-model.ts';
import type { SearchKind } from './tables.ts';

/** Lower case, accents removed: how every indexed text and every query is compared. */
export const normalized = (text: SQL | string): SQL =>
  typeof text === 'string' ? sql`lower(unaccent(${text}::text))` : sql`lower(unaccent(${text}))`;

/** A source as the index sees it: its id, when it changed, whether it is public, and its texts. */
export interface SourceSql {
  /** The source table's FROM clause (with the joins its public rule needs). */
  from: SQL;
  id: SQL;
  updatedAt: SQL;
  /** True when the source may have a document. */
  isPublic: SQL;
  name: SQL;
  label: SQL;
  body: SQL;
  document: SQL;
}

const userName = normalized(sql`coalesce(${users.username}::text, '')`);
const userLabel = normalized(sql`coalesce(${users.nickname}, '')`);

const userSource: SourceSql = {
  from: sql`${users}`,
  id: sql`${users.id}`,
  updatedAt: sql`${users.updatedAt}`,
  isPublic: discoverableUser(),
  name: userName,
  label: userLabel,
  body: sql`concat_ws(' ', ${userName}, ${userLabel})`,
  document: sql`to_tsvector('simple', concat_ws(' ', ${userName}, ${userLabel}))`,
};

const mediaTags = normalized(sql`array_to_string(${media.hashtags}, ' ')`);
const mediaDescription = normalized(sql`coalesce(${media.description}, '')`);
// Where: the country code, the city's name and the country's names (English and French).
const cityName = sql`(SELECT ${cities.name} FROM ${cities} WHERE ${cities.id} = ${media.cityId})`;
const countryNames = sql`(SELECT concat_ws(' ', ${countries.nameEn}, ${countries.nameFr}) FROM ${countries}
  WHERE ${countries.alpha2} = ${media.countryCode})`;
// Only where the owner shows the position: a hidden position's city is not searchable either.
const mediaPlace = normalized(
  sql`CASE WHEN ${media.locationPublic} THEN concat_ws(' ', ${media.countryCode}, ${cityName}, ${countryNames}) ELSE '' END`,
);

const mediaSource: SourceSql = {
  from: sql`${media} JOIN ${users} ON ${eq(users.id, media.ownerId)}`,
  id: sql`${media.id}`,
  updatedAt: sql`${media.updatedAt}`,
  isPublic: allOf(mediaListedFor(null), activeUser()),
  name: sql`''`,
  label: mediaTags,
  body: sql`concat_ws(' ', nullif(${mediaDescription}, ''), nullif(${mediaTags}, ''), nullif(${mediaPlace}, ''))`,
  document: sql`setweight(to_tsvector('simple', ${mediaTags}), 'A')
    || setweight(to_tsvector('simple', ${mediaDescription}), 'B')
    || setweight(to_tsvector('simple', ${mediaPlace}), 'C')`,
};

export const sources: Record<SearchKind, SourceSql> = { user: userSource, media: mediaSource };
