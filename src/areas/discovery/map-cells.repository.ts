/**
 * All SQL of the map's clusters: reading the precomputed cells of a box, clustering a small box live,
 * and rebuilding every level from the media placed in public (map-grid.ts gives the grid).
 */
import { and, between, eq, sql } from 'drizzle-orm';
import { inSpans, longitudeSpans } from '../../platform/db/longitude-spans.ts';
import { byKey, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { boxValues, inBoxPlaceholders, placedInPublic, spansOf } from './geo-sql.ts';
import { type Box, cellDegrees, cellRanges, precomputedZoom } from './map-grid.ts';
import { type MapCellRow, mapCells, mapCellsRebuilds } from './tables.ts';

/**
 * A cell and where its representative is, read live: null once that media is no longer placed in
 * public (the cells are a few minutes old at most; a media's visibility changes at once).
 */
export type MapCell = Omit<MapCellRow, 'zoom'> & {
  representativeLatitude: number | null;
  representativeLongitude: number | null;
};

/** The cell row and column of a media at a zoom, clamped so that 90° and 180° fall in the last cell. */
const cellOf = (zoom: number) => {
  const size = cellDegrees(zoom);
  return {
    cellY: sql<number>`least(floor((${media.latitude} + 90) / ${size})::int, ${2 ** (zoom + 2) - 1})`,
    cellX: sql<number>`least(floor((${media.longitude} + 180) / ${size})::int, ${2 ** (zoom + 3) - 1})`,
  };
};

const cellColumns = {
  cellY: mapCells.cellY,
  cellX: mapCells.cellX,
  mediaCount: mapCells.mediaCount,
  latitude: mapCells.latitude,
  longitude: mapCells.longitude,
  representativeId: mapCells.representativeId,
  representativeLikes: mapCells.representativeLikes,
};

export class MapCellsRepository extends Repository {
  // The representatives' positions come with the cells (one round trip, not two): a probe of the
  // media's primary key per cell, null where the media left public view since the rebuild.
  readonly #cellsIn = byKey(
    longitudeSpans,
    (spans) =>
      new PreparedRead<MapCell>(this.source, `discovery.cellsIn.${spans}`, (db) =>
        db
          .select({ ...cellColumns, representativeLatitude: media.latitude, representativeLongitude: media.longitude })
          .from(mapCells)
          .leftJoin(media, and(eq(media.id, mapCells.representativeId), placedInPublic))
          .where(
            and(
              eq(mapCells.zoom, sql.placeholder('zoom')),
              between(mapCells.cellY, sql.placeholder('rowFrom'), sql.placeholder('rowTo')),
              inSpans(mapCells.cellX, spans, ['columnFrom', 'columnTo']),
            ),
          ),
      ),
  );

  /** One statement per deep zoom (its cell size is part of the grouping) and kind of box, made at its first use. */
  readonly #clusterLive = new Map<string, PreparedRead<MapCell>>();

  /** The precomputed cells of a box at a zoom (at most precomputedZoom). */
  cellsIn(box: Box, zoom: number): Promise<MapCell[]> {
    const { rows, columns } = cellRanges(box, zoom);
    const [first, second] = columns;
    return this.#cellsIn[spansOf(box)].run({
      zoom,
      rowFrom: rows.from,
      rowTo: rows.to,
      columnFrom1: first!.from,
      columnTo1: first!.to,
      ...(second === undefined ? {} : { columnFrom2: second.from, columnTo2: second.to }),
    });
  }

  /** The cells of a small box at a deep zoom, counted live from the media (their representatives placed in public). */
  clusterLive(box: Box, zoom: number): Promise<MapCell[]> {
    const spans = spansOf(box);
    const key = `${zoom}.${spans}`;
    let statement = this.#clusterLive.get(key);
    if (statement === undefined) {
      const { cellY, cellX } = cellOf(zoom);
      const byLikes = sql`ORDER BY ${media.likesCount} DESC, ${media.id} DESC`;
      statement = new PreparedRead<MapCell>(this.source, `discovery.clusterLive.${key}`, (db) =>
        db
          .select({
            cellY,
            cellX,
            mediaCount: sql<number>`count(*)::int`,
            latitude: sql<number>`avg(${media.latitude})`,
            longitude: sql<number>`avg(${media.longitude})`,
            representativeId: sql<string>`(array_agg(${media.id} ${byLikes}))[1]`,
            representativeLikes: sql<number>`max(${media.likesCount})`,
            representativeLatitude: sql<number>`(array_agg(${media.latitude} ${byLikes}))[1]`,
            representativeLongitude: sql<number>`(array_agg(${media.longitude} ${byLikes}))[1]`,
          })
          .from(media)
          .where(and(placedInPublic, inBoxPlaceholders(spans)))
          .groupBy(sql`1`, sql`2`),
      );
      this.#clusterLive.set(key, statement);
    }
    return statement.run(boxValues(box));
  }

  /**
   * Rebuilds every level in one transaction (readers see the old cells until it commits): the
   * deepest level from the media, each coarser one from the level below (a cell is four of those).
   * A concurrent rebuild waits for this one (the table lock), then rebuilds again.
   */
  async rebuild(at: Date): Promise<{ media: number; cells: number }> {
    await this.db.execute(sql`LOCK TABLE ${mapCells} IN EXCLUSIVE MODE`);
    await this.db.delete(mapCells);
    const { cellY, cellX } = cellOf(precomputedZoom);
    await this.db.execute(sql`
      INSERT INTO ${mapCells} (zoom, cell_y, cell_x, media_count, latitude, longitude, representative_id, representative_likes)
      SELECT ${precomputedZoom}, cell_y, cell_x, count(*)::int, avg(latitude), avg(longitude),
             (array_agg(id ORDER BY likes_count DESC, id DESC))[1], max(likes_count)
      FROM (
        SELECT ${cellY} AS cell_y, ${cellX} AS cell_x, ${media.latitude} AS latitude, ${media.longitude} AS longitude,
               ${media.id} AS id, ${media.likesCount} AS likes_count
        FROM ${media}
        WHERE ${placedInPublic}
      ) placed
      GROUP BY cell_y, cell_x`);
    for (let zoom = precomputedZoom - 1; zoom >= 0; zoom--) {
      await this.db.execute(sql`
        INSERT INTO ${mapCells} (zoom, cell_y, cell_x, media_count, latitude, longitude, representative_id, representative_likes)
        SELECT ${zoom}, cell_y / 2, cell_x / 2, sum(media_count)::int,
               sum(latitude * media_count) / sum(media_count), sum(longitude * media_count) / sum(media_count),
               (array_agg(representative_id ORDER BY representative_likes DESC, representative_id DESC))[1],
               max(representative_likes)
        FROM ${mapCells} WHERE zoom = ${zoom + 1}
        GROUP BY cell_y / 2, cell_x / 2`);
    }
    const [totals] = await queryRows<{ media: number; cells: number }>(
      this.db,
      sql`SELECT coalesce(sum(media_count) FILTER (WHERE zoom = 0), 0)::int AS media, count(*)::int AS cells FROM ${mapCells}`,
    );
    const counts = totals ?? { media: 0, cells: 0 };
    await this.db
      .insert(mapCellsRebuilds)
      .values({ id: true, rebuiltAt: at, mediaCount: counts.media })
      .onConflictDoUpdate({ target: mapCellsRebuilds.id, set: { rebuiltAt: at, mediaCount: counts.media } });
    return counts;
  }

  async lastRebuild(): Promise<{ rebuiltAt: Date; mediaCount: number } | null> {
    const [row] = await this.db.select().from(mapCellsRebuilds);
    return row ?? null;
  }
}
