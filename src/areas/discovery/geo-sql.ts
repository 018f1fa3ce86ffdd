/**
 * The SQL every geographic list shares: which media are placed in public, the owner's ban, and the
 * distance from a centre given as placeholders (the centre's earthPointOf, a distance in metres).
 */
import { between, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import { allOf } from '../../platform/db/conditions.ts';
import { literal, unseenByPlans } from '../../platform/db/literals.ts';
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

/** The media's point on the earth, stored (migration 0260) and indexed (media_earth_position). */
export const position = sql`${media.earthPosition}`;

/** Which statements a box is read by (platform/db/longitude-spans.ts). */
export const spansOf = (box: Box): LongitudeSpans => (crossesAntimeridian(box) ? 'twoSpans' : 'oneSpan');

/** The point the map's GiST index (media_map_position, migration 0270) holds: x longitude, y latitude. */
const mapPoint = sql`point(${media.longitude}, ${media.latitude})`;

/** A placeholder's value (a box's edge, a distance): seen by the plans, or not (literals.ts unseenByPlans). */
type PlaceholderValue = (name: string) => SQL;
const seenValue: PlaceholderValue = (name) => sql`${sql.placeholder(name)}`;
const unseenValue: PlaceholderValue = (name) => unseenByPlans(sql.placeholder(name), 'float8');

/**
 * The SQL of a centre and a distance given as the placeholders `centre` (earthPointOf(…)) and
 * `distance` (metres): the centre, the great-circle metres from it (earthdistance's sphere), and
 * within the distance (the box through the index, then the exact distance). `hidden`: the values unseen
 * by the plans (InitPlans, literals.ts unseenByPlans), for a read whose one plan (the GiST index in
 * distance order, under a limit) is right for every centre: seen, the plan made for the values (the
 * centre's box folded into a constant) looked cheaper than the kept one, and PostgreSQL planned nearby
 * again at every request, as long as it took to read it (docs/benchmarks.md, session 43).
 */
export function aroundCentre(values: 'seen' | 'hidden') {
  const centre =
    values === 'seen' ? sql`${sql.placeholder('centre')}::earth` : unseenByPlans(sql.placeholder('centre'), 'earth');
  const metres = (values === 'seen' ? seenValue : unseenValue)('distance');
  const distance = sql<number>`earth_distance(${centre}, ${position})`;
  return {
    centre,
    distance,
    withinDistance: sql`earth_box(${centre}, ${metres}) @> ${position} AND ${distance} <= ${metres}`,
  };
}

/** The rectangle of span n of a box: its longitudes `west<n>`..`east<n>`, its latitudes. */
const spanRectangle = (n: 1 | 2, value: PlaceholderValue) =>
  sql`box(point(${value(`west${n}`)}, ${value('south')}), point(${value(`east${n}`)}, ${value('north')}))`;

/**
 * Within a box given as placeholders (boxValues fills them), so one prepared statement serves every
 * box of its kind. The index reads the box's rectangles (`<@`, exact, edges included). The ranges
 * after it select nothing more; they are there for the planner, which prices `<@` at a fixed
 * selectivity but the ranges from the columns' statistics. `hidden`: the values unseen by the plans,
 * for a read whose one plan (the index, under a limit) is right for every box: at a million media a
 * small box's plan made for its values looked so much cheaper than the kept one that PostgreSQL
 * planned the statement again at every execution (docs/benchmarks.md, session 42).
 */
export const inBoxPlaceholders = (spans: LongitudeSpans, values: 'seen' | 'hidden' = 'seen'): SQL => {
  const value = values === 'seen' ? seenValue : unseenValue;
  return allOf(
    spans === 'oneSpan'
      ? sql`${mapPoint} <@ ${spanRectangle(1, value)}`
      : sql`(${mapPoint} <@ ${spanRectangle(1, value)} OR ${mapPoint} <@ ${spanRectangle(2, value)})`,
    between(media.latitude, value('south'), value('north')),
    inSpans(media.longitude, spans, ['west', 'east'], value),
  );
};

/** The placeholders' values of a box: one span, or two across the antimeridian (spansOf). */
export function boxValues(box: Box) {
  const latitudes = { south: box.south, north: box.north };
  if (spansOf(box) === 'oneSpan') return { ...latitudes, west1: box.west, east1: box.east };
  return { ...latitudes, west1: box.west, east1: 180, west2: -180, east2: box.east };
}
