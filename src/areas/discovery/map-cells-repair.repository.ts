/**
 * The map-clusters job's SQL: the ledger of counted media and every level's cells compared with what
 * the media placed in public make of them, and repaired by difference (platform/db/table-sync.ts).
 * The writes that keep them current are map-cell-counts.repository.ts.
 */
import { type SQL, sql } from 'drizzle-orm';
import { nameOf } from '../../platform/db/column-names.ts';
import { literal } from '../../platform/db/literals.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import {
  rowsOutOfSync,
  type SideColumn,
  type SyncCounts,
  syncTable,
  type TableSync,
} from '../../platform/db/table-sync.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { placedOnMap } from './geo-sql.ts';
import { cellOf } from './map-cell-sql.ts';
import { precomputedZoom } from './map-grid.ts';
import { mapCells, mapCountedMedia } from './tables.ts';

/** What a repair found and changed. */
export type RepairReport = {
  /** Media the cells count, and cells, once repaired. */
  media: number;
  cells: number;
  /** Media counted though no longer placed in public (stale), or not counted where they are (missing), before the repair. */
  drift: { stale: number; missing: number };
  /** Cells written because they differed from what the media make, and cells removed because no media makes them. */
  repaired: SyncCounts;
};

const c = mapCells;
const counted = mapCountedMedia;

/** The ledger should hold every media placed in public, where it is. */
const ledgerSync: TableSync = {
  table: counted,
  keys: [counted.mediaId],
  values: [counted.latitude, counted.longitude],
  fresh: sql`SELECT ${media.id} AS ${nameOf(counted.mediaId)}, ${media.latitude} AS ${nameOf(counted.latitude)},
                    ${media.longitude} AS ${nameOf(counted.longitude)}
             FROM ${media} WHERE ${placedOnMap}`,
};

/**
 * Every level's cells as the media placed in public make them: the finest from the media, each coarser
 * one from the level below (a cell is four of those), the representative the most liked, then the
 * highest id. One statement of chained levels, so the comparison sees one snapshot.
 */
function freshCells(): SQL {
  const { cellY, cellX } = cellOf(precomputedZoom, media);
  const level = (zoom: number) => sql.raw(`z${zoom}`);
  const representative = sql`(array_agg(id ORDER BY likes DESC, id DESC))[1] AS id, max(likes) AS likes`;
  const levels: SQL[] = [
    sql`${level(precomputedZoom)} AS (
      SELECT "cellY", "cellX", count(*)::int AS count, sum(latitude) AS latitude, sum(longitude) AS longitude, ${representative}
      FROM (
        SELECT ${cellY} AS "cellY", ${cellX} AS "cellX", ${media.latitude} AS latitude, ${media.longitude} AS longitude,
               ${media.id} AS id, ${media.likesCount} AS likes
        FROM ${media} WHERE ${placedOnMap}
      ) placed
      GROUP BY "cellY", "cellX")`,
  ];
  for (let zoom = precomputedZoom - 1; zoom >= 0; zoom--) {
    levels.push(sql`${level(zoom)} AS (
      SELECT "cellY" / 2 AS "cellY", "cellX" / 2 AS "cellX", sum(count)::int AS count, sum(latitude) AS latitude,
             sum(longitude) AS longitude, ${representative}
      FROM ${level(zoom + 1)} GROUP BY 1, 2)`);
  }
  const rows = [];
  for (let zoom = 0; zoom <= precomputedZoom; zoom++) {
    rows.push(sql`SELECT ${literal(zoom)}::smallint AS ${nameOf(c.zoom)}, "cellY" AS ${nameOf(c.cellY)}, "cellX" AS ${nameOf(c.cellX)},
      count AS ${nameOf(c.mediaCount)}, latitude AS ${nameOf(c.latitudeSum)}, longitude AS ${nameOf(c.longitudeSum)},
      id AS ${nameOf(c.representativeId)}, likes AS ${nameOf(c.representativeLikes)} FROM ${level(zoom)}`);
  }
  return sql`WITH ${sql.join(levels, sql`, `)} ${sql.join(rows, sql` UNION ALL `)}`;
}

/**
 * How far a cell's position sums may stray from the media's before it counts as wrong, per media, in
 * degrees (about a centimetre): the writes add and take out positions one by one, the repair sums them
 * in another order, and doubles added in another order differ in their last bits.
 */
const positionTolerance = 1e-7;

const sumsDiffer = (f: SideColumn, s: SideColumn) =>
  sql.join(
    [c.latitudeSum, c.longitudeSum].map(
      (sum) => sql`abs(${f(sum)} - ${s(sum)}) > ${literal(positionTolerance)} * ${f(c.mediaCount)}`,
    ),
    sql` OR `,
  );

const cellsSync: TableSync = {
  table: c,
  keys: [c.zoom, c.cellY, c.cellX],
  values: [c.mediaCount, c.latitudeSum, c.longitudeSum, c.representativeId, c.representativeLikes],
  fresh: freshCells(),
  // A row missing on either side differs by its count (null); present on both, its sums are compared within the tolerance.
  differs: (f, s) =>
    sql`(${f(c.mediaCount)}, ${f(c.representativeId)}, ${f(c.representativeLikes)}) IS DISTINCT FROM (${s(c.mediaCount)}, ${s(c.representativeId)}, ${s(c.representativeLikes)})
        OR ${sumsDiffer(f, s)}`,
};

export class MapCellsRepairRepository extends Repository {
  /**
   * Repairs the ledger and every level's cells by difference, in the job's transaction. First, read
   * only and locking nothing, whether both hold exactly what the media placed in public make: the
   * writes keep them so (a cell's representative follows likes too, MapCellCountsService.followLikes),
   * and then nothing is locked or written. Else, under the table locks (a concurrent repair and the
   * writes, which take their ledger lock first as here, wait for it), the ledger is repaired, then the
   * cells that differ are written and those no media make removed: the rest is not rewritten.
   */
  async repair(): Promise<RepairReport> {
    // The aggregates get room in memory instead of spilling to disk.
    await this.db.execute(sql`SET LOCAL work_mem = '64MB'`);
    const ledger = await rowsOutOfSync(this.db, ledgerSync);
    const cells = await rowsOutOfSync(this.db, cellsSync);
    let drift = { stale: ledger.removed, missing: ledger.written };
    let repaired = { removed: 0, written: 0 };
    if (ledger.removed + ledger.written + cells.removed + cells.written > 0) {
      await this.db.execute(sql`LOCK TABLE ${mapCountedMedia}, ${mapCells} IN EXCLUSIVE MODE`);
      const repairedLedger = await syncTable(this.db, ledgerSync);
      drift = { stale: repairedLedger.removed, missing: repairedLedger.written };
      repaired = await syncTable(this.db, cellsSync);
    }
    const [totals] = await queryRows<{ media: number; cells: number }>(
      this.db,
      sql`SELECT coalesce(sum(${c.mediaCount}) FILTER (WHERE ${c.zoom} = 0), 0)::int AS media, count(*)::int AS cells FROM ${c}`,
    );
    return { ...(totals ?? { media: 0, cells: 0 }), drift, repaired };
  }
}
