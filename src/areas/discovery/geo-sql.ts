/**
 * The SQL every geographic list shares: which media are placed in public, the owner's ban, and the
 * distance from a centre given as placeholders (the centre's earthPointOf, a distance in metres).
 */
import { and, between, eq, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { literal } from '../../platform/db/literals.ts';
import { mediaRows as media, mediaListedFor } from '../media/read-model.ts';
import type { Box } from './map-grid.ts';

/** The one rule of every geographic list (mediaListedFor holds the owner's ban, as media's owner_banned). */
export const placedInPublic: SQL = and(
  mediaListedFor(null),
  eq(media.locationPublic, literal(true)),
  isNotNull(media.latitude),
  isNotNull(media.longitude),
)!;

/** earthdistance's earth(): the radius of its sphere, in metres. */
const earthRadiusMetres = 6_378_168;

/**
 * A centre's point on the earth as earthdistance's ll_to_earth computes it, computed here so that a
 * statement receives it as one value (`centre`): with ll_to_earth(latitude, longitude) in its text,
 * PostgreSQL planned the nearby statement again at every execution (0.44 ms, where running it takes
 * 0.18), its plan for any centre costing ll_to_earth at every row.
 */
export function earthPointOf({ latitude, longitude }: { latitude: number; longitude: number }): string {
  const phi = (latitude * Math.PI) / 180;
  const lambda = (longitude * Math.PI) / 180;
  const r = earthRadiusMetres;
  return `(${r * Math.cos(phi) * Math.cos(lambda)}, ${r * Math.cos(phi) * Math.sin(lambda)}, ${r * Math.sin(phi)})`;
}

/** The centre, given as the placeholder `centre` holding earthPointOf(…). */
export const centre = sql`${sql.placeholder('centre')}::earth`;
/** The media's point on the earth, stored (migration 0260) and indexed (media_earth_position). */
export const position = sql`${media.earthPosition}`;
/** Great-circle metres from the centre (earthdistance's sphere). */
export const distance = sql<number>`earth_distance(${centre}, ${position})`;
/** Within `distance` metres: the box through the index, then the exact distance. */
export const withinDistance = sql`earth_box(${centre}, ${sql.placeholder('distance')}) @> ${position} AND ${distance} <= ${sql.placeholder('distance')}`;

/**
 * Within a box given as placeholders: latitude between south and north, longitude in one of two
 * ranges (a box across the antimeridian is two; boxValues fills them), so one prepared statement
 * serves every box.
 */
export const inBoxPlaceholders: SQL = and(
  between(media.latitude, sql.placeholder('south'), sql.placeholder('north')),
  or(
    between(media.longitude, sql.placeholder('west1'), sql.placeholder('east1')),
    between(media.longitude, sql.placeholder('west2'), sql.placeholder('east2')),
  ),
)!;

export function boxValues(box: Box) {
  const [first, second] =
    box.west > box.east
      ? [
          { west: box.west, east: 180 },
          { west: -180, east: box.east },
        ]
      : [
          { west: box.west, east: box.east },
          { west: box.west, east: box.east },
        ];
  return {
    south: box.south,
    north: box.north,
    west1: first.west,
    east1: first.east,
    west2: second.west,
    east2: second.east,
  };
}
