/**
 * All SQL of reading the map's clusters: the precomputed cells of a box, and a small box clustered
 * live (map-grid.ts gives the grid). The writes that keep the cells current are
 * map-cell-counts.repository.ts; the job's repair is map-cells-repair.repository.ts.
 */
import { and, between, eq, sql } from 'drizzle-orm';
import { inSpans, longitudeSpans } from '../../platform/db/longitude-spans.ts';
import { byKey, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { boxValues, inBoxPlaceholders, placedOnMap, spansOf } from './geo-sql.ts';
import { cellOf } from './map-cell-sql.ts';
import { type Box, cellRanges } from './map-grid.ts';
import { mapCells } from './tables.ts';

/**
 * A cell (its media's mean position) and where its representative is, read live: null once that
 * media is no longer placed in public (the writes keep the representatives placed, but one changed
 * behind the service's back stays until the next repair).
 */
export interface MapCell {
  cellY: number;
  cellX: number;
  mediaCount: number;
  latitude: number;
  longitude: number;
  representativeId: string;
  representativeLatitude: number | null;
  representativeLongitude: number | null;
}

const cellColumns = {
  cellY: mapCells.cellY,
  cellX: mapCells.cellX,
  mediaCount: mapCells.mediaCount,
  latitude: sql<number>`${mapCells.latitudeSum} / ${mapCells.mediaCount}`,
  longitude: sql<number>`${mapCells.longitudeSum} / ${mapCells.mediaCount}`,
  representativeId: mapCells.representativeId,
};

export class MapCellsRepository extends Repository {
  // The representatives' positions come with the cells (one round trip, not two): a probe of the
  // media's primary key per cell, null where the media is not placed in public (any more).
  readonly #cellsIn = byKey(
    longitudeSpans,
    (spans) =>
      new PreparedRead<MapCell>(this.replicaSource, `discovery.cellsIn.${spans}`, (db) =>
        db
          .select({ ...cellColumns, representativeLatitude: media.latitude, representativeLongitude: media.longitude })
          .from(mapCells)
          .leftJoin(media, and(eq(media.id, mapCells.representativeId), placedOnMap))
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
      columnFrom1: first.from,
      columnTo1: first.to,
      ...(second === undefined ? {} : { columnFrom2: second.from, columnTo2: second.to }),
    });
  }

  /** The cells of a small box at a deep zoom, counted live from the media (their representatives placed in public). */
  clusterLive(box: Box, zoom: number): Promise<MapCell[]> {
    const spans = spansOf(box);
    const key = `${zoom}.${spans}`;
    let statement = this.#clusterLive.get(key);
    if (statement === undefined) {
      const { cellY, cellX } = cellOf(zoom, media);
      const byLikes = sql`ORDER BY ${media.likesCount} DESC, ${media.id} DESC`;
      statement = new PreparedRead<MapCell>(this.replicaSource, `discovery.clusterLive.${key}`, (db) =>
        db
          .select({
            cellY,
            cellX,
            mediaCount: sql<number>`count(*)::int`,
            latitude: sql<number>`avg(${media.latitude})`,
            longitude: sql<number>`avg(${media.longitude})`,
            representativeId: sql<string>`(array_agg(${media.id} ${byLikes}))[1]`,
            representativeLatitude: sql<number>`(array_agg(${media.latitude} ${byLikes}))[1]`,
            representativeLongitude: sql<number>`(array_agg(${media.longitude} ${byLikes}))[1]`,
          })
          .from(media)
          .where(and(placedOnMap, inBoxPlaceholders(spans)))
          .groupBy(sql`1`, sql`2`),
      );
      this.#clusterLive.set(key, statement);
    }
    return statement.run(boxValues(box));
  }
}
