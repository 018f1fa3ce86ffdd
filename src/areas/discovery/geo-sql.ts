/**
 * The SQL every geographic list shares: which media are placed in public, the owner's ban, and the
 * distance from a centre given as placeholders (the centre's earthPointOf, a distance in metres).
 */
import { between, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import { allOf } from '../../platform/db/conditions.ts';
import { literal } from '../../platform/db/literals.ts';
import { inSpans, type LongitudeSpans } from '../../platform/db/longitude-spans.ts';
import { mediaRows as media, mediaListedFor, mediaOnMap } from '../media/read-model.ts';
import { type Box, crossesAntimeridian } from './map-grid.ts';

/** The one rule of every geographic list (mediaListedFor holds the owner's ban, as media's owner_banned). */
export const placedInPublic: SQL = allOf(
  mediaListedFor(null),
  eq(media.locationPublic, literal(true)),
  isNotNull(media.latitude),
  isNotNull(media.longitude),
);

/**
 * What the map shows (its cells, and the photos of a small box): the same, one photo per post of
 * several, at its first photo placed in public (media's mediaOnMap), which may be another than the lead.
 */
export const placedOnMap: SQL = allOf(
  mediaOnMap,
  eq(media.locationPublic, literal(true)),
  isNotNull(media.latitude),
  isNotNull(media.longitude),
);

/** The centre, given as the placeholder `centre` holding earthPointOf(…). */
export const centre = sql`${sql.placeholder('centre')}::earth`;
/** The media's point on the earth, stored (migration 0260) and indexed (media_earth_position). */
export const position = sql`${media.earthPosition}`;
/** Great-circle metres from the centre (earthdistance's sphere). */
export const distance = sql<number>`earth_distance(${centre}, ${position})`;
/** Within `distance` metres: the box through the index, then the exact distance. */
export const withinDistance = sql`earth_box(${centre}, ${sql.placeholder('distance')}) @> ${position} AND ${distance} <= ${sql.placeholder('distance')}`;

/** Which statements a box is read by (platform/db/longitude-spans.ts). */
export const spansOf = (box: Box): LongitudeSpans => (crossesAntimeridian(box) ? 'twoSpans' : 'oneSpan');

/** The point the map's GiST index (media_map_position, migration 0270) holds: x longitude, y latitude. */
const mapPoint = sql`point(${media.longitude}, ${media.latitude})`;

/** The rectangle of span n of a box: its longitudes `west<n>`..`east<n>`, its latitudes. */
const spanRectangle = (n: 1 | 2) =>
  sql`box(point(${sql.placeholder(`west${n}`)}, ${sql.placeholder('south')}), point(${sql.placeholder(`east${n}`)}, ${sql.placeholder('north')}))`;

/**
 * Within a box given as placeholders (boxValues fills them), so one prepared statement serves every
 * box of its kind. The index reads the box's rectangles (`<@`, exact, edges included). The ranges
 * after it select nothing more; they are there for the planner, which prices `<@` at a fixed
 * selectivity but the ranges from the columns' statistics.
 */
export const inBoxPlaceholders = (spans: LongitudeSpans): SQL =>
  allOf(
    spans === 'oneSpan'
      ? sql`${mapPoint} <@ ${spanRectangle(1)}`
      : sql`(${mapPoint} <@ ${spanRectangle(1)} OR ${mapPoint} <@ ${spanRectangle(2)})`,
    between(media.latitude, sql.placeholder('south'), sql.placeholder('north')),
    inSpans(media.longitude, spans, ['west', 'east']),
  );

/** The placeholders' values of a box: one span, or two across the antimeridian (spansOf). */
export function boxValues(box: Box) {
  const latitudes = { south: box.south, north: box.north };
  if (spansOf(box) === 'oneSpan') return { ...latitudes, west1: box.west, east1: box.east };
  return { ...latitudes, west1: box.west, east1: 180, west2: -180, east2: box.east };
}
