/**
 * The SQL that keeps the map's cells current on a write: what the cells count of some media (the
 * ledger map_counted_media), where those media are placed in public now, and the additions that move
 * every level's cells from the one to the other.
 */
import { type AnyColumn, and, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { uuidArray } from '../../platform/db/array-literal.ts';
import { nameOf, namesOf } from '../../platform/db/column-names.ts';
import { literal } from '../../platform/db/literals.ts';
import { boundLockWaits } from '../../platform/db/lock-waits.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { placedOnMap } from './geo-sql.ts';
import { cellOf, coarser } from './map-cell-sql.ts';
import { cellDegrees, precomputedZoom } from './map-grid.ts';
import { mapCells, mapCountedMedia } from './tables.ts';

/** A media at the position the cells count it at (or should). */
export interface CountedPosition {
  mediaId: string;
  latitude: number;
  longitude: number;
}

/** A media going into the cells (+1, with its likes, a candidate representative) or out of them (-1). */
export interface CellChange extends CountedPosition {
  sign: 1 | -1;
  likes: number;
}

/** A cell of a precomputed level. */
export interface CellKey {
  zoom: number;
  cellY: number;
  cellX: number;
}

/** A cell a change touched, as the change left it. */
export interface TouchedCell extends CellKey {
  mediaCount: number;
  representativeId: string;
}

const integerArray = (values: readonly number[]) => sql`${sql.param(values)}::int[]`;
const doubleArray = (values: readonly number[]) => sql`${sql.param(values)}::float8[]`;
// One array parameter however many media an owner has (an IN list would take a parameter each).
const amongIds = (column: SQLWrapper, ids: readonly string[]) => sql`${column} = ANY(${uuidArray(ids)})`;

/** The cells of a list of one zoom, as rows `cell("cellY", "cellX")`. */
const cellsOfList = (cells: readonly CellKey[]): SQL =>
  sql`unnest(${integerArray(cells.map((cell) => cell.cellY))}, ${integerArray(cells.map((cell) => cell.cellX))}) AS cell("cellY", "cellX")`;

/** The cells' table under the names its statements give it: the row written, repaired, or one zoom below. */
const targetName = 'target';
const [writtenCell, target, below] = [alias(mapCells, 'cell'), alias(mapCells, targetName), alias(mapCells, 'below')];
const excluded = (column: AnyColumn) => sql`excluded.${nameOf(column)}`;

/** Keeps the best representative only: the most liked, then the highest id (the repair's order, map-cells-repair.repository.ts). */
const byLikes = (id: SQL, likes: SQL) => sql`ORDER BY ${likes} DESC, ${id} DESC LIMIT 1`;

export class MapCellCountsRepository extends Repository {
  /**
   * What the cells count of these media, their ledger rows locked until the transaction ends, in id
   * order. The lock also waits for a repair in progress (the job's table lock), so what it reads is
   * what the cells hold.
   */
  async lockCounted(ids: readonly string[]): Promise<CountedPosition[]> {
    return this.db
      .select({
        mediaId: mapCountedMedia.mediaId,
        latitude: mapCountedMedia.latitude,
        longitude: mapCountedMedia.longitude,
      })
      .from(mapCountedMedia)
      .where(amongIds(mapCountedMedia.mediaId, ids))
      .orderBy(mapCountedMedia.mediaId)
      .for('update');
  }

  /** Which of these media are placed in public now, where, and with how many likes. */
  async placedNow(ids: readonly string[]): Promise<Array<CountedPosition & { likes: number }>> {
    const rows = await this.db
      .select({ mediaId: media.id, latitude: media.latitude, longitude: media.longitude, likes: media.likesCount })
      .from(media)
      .where(and(amongIds(media.id, ids), placedOnMap));
    // placedOnMap holds both coordinates.
    return rows.flatMap(({ latitude, longitude, ...row }) =>
      latitude === null || longitude === null ? [] : [{ ...row, latitude, longitude }],
    );
  }

  /** Every post of an owner (their standing decides whether the map counts them). */
  async postIdsOf(ownerId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.ownerId, ownerId), eq(media.kind, literal('post'))));
    return rows.map((row) => row.id);
  }

  /** The ledger follows the change: the media taken out are forgotten, those put in recorded where they are. */
  async recordCounted(removedIds: readonly string[], added: readonly CountedPosition[]): Promise<void> {
    if (removedIds.length > 0)
      await this.db.delete(mapCountedMedia).where(amongIds(mapCountedMedia.mediaId, removedIds));
    if (added.length === 0) return;
    const counted = mapCountedMedia;
    await this.db.execute(
      sql`INSERT INTO ${counted} (${namesOf(counted.mediaId, counted.latitude, counted.longitude)})
          SELECT * FROM unnest(${uuidArray(added.map((item) => item.mediaId))},
            ${doubleArray(added.map((item) => item.latitude))}, ${doubleArray(added.map((item) => item.longitude))})`,
    );
  }

  /**
   * Adds the changes to the cells of every precomputed level in one statement: per cell, the count
   * and position sums move by the changes' sum, and a media put in becomes the representative when it
   * beats the cell's. A cell that only loses media exists (the ledger counted them there); were it
   * missing, the row made here counts 0 or less and `deleteEmptied` takes it away.
   *
   * Why an addition (`count = count + n`) and not a recount of the cell: INSERT ... ON CONFLICT DO
   * UPDATE adds to the row as it is once this statement holds its lock, another writer's committed
   * change included, so two media written at once in one cell are both counted. A recount would read
   * the media as of the statement's start, before waiting for the other writer, and write back a
   * count without its media. The cells are locked in (zoom, row, column) order, one order for every
   * writer, so writers that share cells wait for one another instead of deadlocking.
   */
  async addToCells(changes: readonly CellChange[]): Promise<TouchedCell[]> {
    const change = sql`unnest(${integerArray(changes.map((item) => item.sign))}, ${uuidArray(changes.map((item) => item.mediaId))},
      ${doubleArray(changes.map((item) => item.latitude))}, ${doubleArray(changes.map((item) => item.longitude))},
      ${integerArray(changes.map((item) => item.likes))}) AS change(sign, id, latitude, longitude, likes)`;
    const { cellY, cellX } = cellOf(precomputedZoom, {
      latitude: sql`change.latitude`,
      longitude: sql`change.longitude`,
    });
    const zoom = sql`level.zoom`;
    const cell = writtenCell;
    const added = (column: AnyColumn, written: AnyColumn) => sql`${nameOf(column)} = ${written} + ${excluded(column)}`;
    return queryRows<TouchedCell>(
      this.db,
      sql`INSERT INTO ${mapCells} AS ${cell} (${namesOf(mapCells.zoom, mapCells.cellY, mapCells.cellX, mapCells.mediaCount, mapCells.latitudeSum, mapCells.longitudeSum, mapCells.representativeId, mapCells.representativeLikes)})
          SELECT ${zoom}, ${coarser(sql`finest."cellY"`, zoom)}, ${coarser(sql`finest."cellX"`, zoom)},
                 sum(sign)::int, sum(sign * latitude), sum(sign * longitude),
                 (array_agg(id ORDER BY sign DESC, likes DESC, id DESC))[1],
                 max(CASE WHEN sign > 0 THEN likes ELSE -1 END)
          FROM (SELECT change.*, ${cellY} AS "cellY", ${cellX} AS "cellX" FROM ${change}) finest
          CROSS JOIN generate_series(0, ${literal(precomputedZoom)}) AS level(zoom)
          GROUP BY 1, 2, 3
          ORDER BY 1, 2, 3
          ON CONFLICT (${namesOf(mapCells.zoom, mapCells.cellY, mapCells.cellX)}) DO UPDATE SET
            ${added(mapCells.mediaCount, cell.mediaCount)},
            ${added(mapCells.latitudeSum, cell.latitudeSum)},
            ${added(mapCells.longitudeSum, cell.longitudeSum)},
            ${nameOf(mapCells.representativeId)} = CASE
              WHEN (${excluded(mapCells.representativeLikes)}, ${excluded(mapCells.representativeId)}) > (${cell.representativeLikes}, ${cell.representativeId})
              THEN ${excluded(mapCells.representativeId)} ELSE ${cell.representativeId} END,
            ${nameOf(mapCells.representativeLikes)} = greatest(${cell.representativeLikes}, ${excluded(mapCells.representativeLikes)})
          RETURNING ${cell.zoom} AS zoom, ${cell.cellY} AS "cellY", ${cell.cellX} AS "cellX", ${cell.mediaCount} AS "mediaCount",
                    ${cell.representativeId} AS "representativeId"`,
    );
  }

  /**
   * The cells counting this media whose representative its likes count, as it is now, moves: those it
   * now beats, and those it represents with another count of likes (it may have lost its place).
   * Locked in (zoom, row, column) order, every writer's order, until the transaction ends; none when
   * the map does not count the media.
   *
   * The media's cell of zoom 0 is locked first, in a statement of its own, so that the runs for media
   * of one region take turns and each reads the cells as the one before left them. Without it, one run
   * could take a coarse cell's representative from the cells below while another's rise in one of
   * those was not committed, and the other, reading the coarse cell as it was, leave it there: a
   * representative less liked than one of its media, until the next repair.
   */
  async lockCellsItsLikesMove(mediaId: string): Promise<CellKey[]> {
    // A run waits for the region's other writers briefly, but for the daily repair's table locks (seconds
    // at a million media) at most a bound: it runs in the like's request (platform/db/lock-waits.ts).
    await boundLockWaits(this.db);
    const cell = target;
    const { cellY, cellX } = cellOf(precomputedZoom, mapCountedMedia);
    const itsCell = (zoom: SQL) =>
      sql`${cell.zoom} = ${zoom} AND ${cell.cellY} = ${coarser(cellY, zoom)} AND ${cell.cellX} = ${coarser(cellX, zoom)}`;
    const lockTarget = sql`FOR UPDATE OF ${sql.identifier(targetName)}`;
    const region = await queryRows(
      this.db,
      sql`SELECT 1 FROM ${mapCountedMedia} JOIN ${mapCells} AS ${cell} ON ${itsCell(sql`0`)}
          WHERE ${mapCountedMedia.mediaId} = ${mediaId} ${lockTarget}`,
    );
    if (region.length === 0) return [];
    return queryRows<CellKey>(
      this.db,
      sql`SELECT ${cell.zoom} AS zoom, ${cell.cellY} AS "cellY", ${cell.cellX} AS "cellX"
          FROM ${mapCountedMedia}
          JOIN ${media} ON ${media.id} = ${mapCountedMedia.mediaId}
          CROSS JOIN generate_series(0, ${literal(precomputedZoom)}) AS level(zoom)
          JOIN ${mapCells} AS ${cell} ON ${itsCell(sql`level.zoom`)}
          WHERE ${mapCountedMedia.mediaId} = ${mediaId}
            AND ((${media.likesCount}, ${media.id}) > (${cell.representativeLikes}, ${cell.representativeId})
                 OR (${cell.representativeId} = ${media.id} AND ${cell.representativeLikes} <> ${media.likesCount}))
          ORDER BY 1, 2, 3
          ${lockTarget}`,
    );
  }

  /** Deletes the cells among these that count no media any more (read again under the lock held). */
  async deleteEmptied(cells: readonly TouchedCell[]): Promise<void> {
    await this.db.execute(
      sql`DELETE FROM ${mapCells} WHERE ${mapCells.mediaCount} <= 0
          AND (${mapCells.zoom}, ${mapCells.cellY}, ${mapCells.cellX}) IN (SELECT * FROM unnest(${integerArray(cells.map((cell) => cell.zoom))}::smallint[],
            ${integerArray(cells.map((cell) => cell.cellY))}, ${integerArray(cells.map((cell) => cell.cellX))}))`,
    );
  }

  /**
   * Gives these cells of one zoom the best representative they hold now: at the precomputed zoom the
   * most liked media placed in public in the cell, above it the best of the four cells below (the
   * repair's rule). Run from the precomputed zoom up, so each level reads the one it just repaired.
   */
  async repairRepresentatives(zoom: number, cells: readonly CellKey[]): Promise<void> {
    const best = zoom === precomputedZoom ? bestPlacedMedia() : bestCellBelow(zoom);
    await this.db.execute(
      sql`UPDATE ${mapCells} AS ${target}
          SET ${nameOf(mapCells.representativeId)} = best.id, ${nameOf(mapCells.representativeLikes)} = best.likes
          FROM ${cellsOfList(cells)} CROSS JOIN LATERAL (${best}) AS best
          WHERE ${target.zoom} = ${literal(zoom)} AND ${target.cellY} = cell."cellY" AND ${target.cellX} = cell."cellX"`,
    );
  }
}

/** The most liked media placed in public in `cell` at the precomputed zoom (the map's GiST index reads its rectangle). */
function bestPlacedMedia(): SQL {
  const size = cellDegrees(precomputedZoom);
  const { cellY, cellX } = cellOf(precomputedZoom, media);
  const corner = (y: SQL, x: SQL) => sql`point(${x} * ${literal(size)} - 180, ${y} * ${literal(size)} - 90)`;
  const rectangle = sql`box(${corner(sql`cell."cellY"`, sql`cell."cellX"`)}, ${corner(sql`cell."cellY" + 1`, sql`cell."cellX" + 1`)})`;
  return sql`SELECT ${media.id} AS id, ${media.likesCount} AS likes FROM ${media}
    WHERE point(${media.longitude}, ${media.latitude}) <@ ${rectangle} AND ${placedOnMap}
      AND ${cellY} = cell."cellY" AND ${cellX} = cell."cellX"
    ${byLikes(sql`${media.id}`, sql`${media.likesCount}`)}`;
}

/** The best representative of the four cells one zoom below `cell`. */
function bestCellBelow(zoom: number): SQL {
  return sql`SELECT ${below.representativeId} AS id, ${below.representativeLikes} AS likes FROM ${mapCells} AS ${below}
    WHERE ${below.zoom} = ${literal(zoom + 1)}
      AND ${below.cellY} BETWEEN cell."cellY" * 2 AND cell."cellY" * 2 + 1
      AND ${below.cellX} BETWEEN cell."cellX" * 2 AND cell."cellX" * 2 + 1
    ${byLikes(sql`${below.representativeId}`, sql`${below.representativeLikes}`)}`;
}
