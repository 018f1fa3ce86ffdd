/**
 * The grid of map-grid.ts in SQL, one definition for every statement that places a position in a
 * cell: the live clusters, the job's repair and the writes that keep the cells current, so that a
 * media is counted, and taken out again, in the same cell whichever of them placed it.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { literal } from '../../platform/db/literals.ts';
import { cellDegrees, precomputedZoom } from './map-grid.ts';

/** The cell row and column of a position at a zoom, clamped so that 90° and 180° fall in the last cell. */
export function cellOf(zoom: number, position: { latitude: SQLWrapper; longitude: SQLWrapper }) {
  const size = cellDegrees(zoom);
  return {
    cellY: sql<number>`least(floor((${position.latitude} + 90) / ${size})::int, ${2 ** (zoom + 2) - 1})`,
    cellX: sql<number>`least(floor((${position.longitude} + 180) / ${size})::int, ${2 ** (zoom + 3) - 1})`,
  };
}

/**
 * The row or column at `zoom` (an SQL integer) of a cell of the precomputed zoom: a cell is four of
 * the level below, so its index is the finer one halved once per level, as the repair merges them.
 */
export const coarser = (finest: SQLWrapper, zoom: SQLWrapper): SQL =>
  sql`${finest} >> (${literal(precomputedZoom)} - ${zoom})`;
