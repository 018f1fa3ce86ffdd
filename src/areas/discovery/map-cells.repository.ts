/**
 * All SQL of reading the map's clusters: the precomputed cells of a box, a small box clustered live,
 * and the rebuild of every level (and of the ledger of what they count) from the media placed in
 * public (map-grid.ts gives the grid). The writes that keep them current between rebuilds are
 * map-cell-counts.repository.ts.
 */
import { and, between, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { nameOf, namesOf } from '../../platform/db/column-names.ts';
import { inSpans, longitudeSpans } from '../../platform/db/longitude-spans.ts';
import { byKey, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { boxValues, inBoxPlaceholders, placedOnMap, spansOf } from './geo-sql.ts';
import { cellOf } from './map-cell-sql.ts';
import { type Box, cellRanges, precomputedZoom } from './map-grid.ts';
import { mapCells, mapCellsRebuilds, mapCountedMedia } from './tables.ts';

/**
 * A cell (its media's mean position) and where its representative is, read live: null once that
 * media is no longer placed in public (the writes keep the cells current, but the representative of
 * a cell may trail: a like does not move it until the next rebuild).
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

/** What a rebuild counted, and what it found the writes had not told the cells. */
export type RebuildReport = {
  media: number;
  cells: number;
  /** Media counted though no longer placed in public (stale), or not counted where they are (missing), before the rebuild. */
  drift: { stale: number; missing: number };
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

  /**
   * Rebuilds every level in one transaction (readers see the old cells until it commits): the
   * deepest level from the media, each coarser one from the level below (a cell is four of those),
   * and repairs the ledger of what they count. The table locks make a concurrent rebuild, and the
   * writes that keep the cells current (their ledger lock first, as here), wait for this one.
   */
  async rebuild(at: Date): Promise<RebuildReport> {
    await this.db.execute(sql`LOCK TABLE ${mapCountedMedia}, ${mapCells} IN EXCLUSIVE MODE`);
    const drift = await this.#repairCounted();
    await this.db.delete(mapCells);
    const { cellY, cellX } = cellOf(precomputedZoom, media);
    const c = mapCells;
    const cellColumns = namesOf(
      c.zoom,
      c.cellY,
      c.cellX,
      c.mediaCount,
      c.latitudeSum,
      c.longitudeSum,
      c.representativeId,
      c.representativeLikes,
    );
    await this.db.execute(sql`
      INSERT INTO ${c} (${cellColumns})
      SELECT ${precomputedZoom}, "cellY", "cellX", count(*)::int, sum(latitude), sum(longitude),
             (array_agg(id ORDER BY likes DESC, id DESC))[1], max(likes)
      FROM (
        SELECT ${cellY} AS "cellY", ${cellX} AS "cellX", ${media.latitude} AS latitude, ${media.longitude} AS longitude,
               ${media.id} AS id, ${media.likesCount} AS likes
        FROM ${media}
        WHERE ${placedOnMap}
      ) placed
      GROUP BY "cellY", "cellX"`);
    for (let zoom = precomputedZoom - 1; zoom >= 0; zoom--) {
      await this.db.execute(sql`
        INSERT INTO ${c} (${cellColumns})
        SELECT ${zoom}, ${c.cellY} / 2, ${c.cellX} / 2, sum(${c.mediaCount})::int, sum(${c.latitudeSum}), sum(${c.longitudeSum}),
               (array_agg(${c.representativeId} ORDER BY ${c.representativeLikes} DESC, ${c.representativeId} DESC))[1],
               max(${c.representativeLikes})
        FROM ${c} WHERE ${c.zoom} = ${zoom + 1}
        GROUP BY ${c.cellY} / 2, ${c.cellX} / 2`);
    }
    const [totals] = await queryRows<{ media: number; cells: number }>(
      this.db,
      sql`SELECT coalesce(sum(${c.mediaCount}) FILTER (WHERE ${c.zoom} = 0), 0)::int AS media, count(*)::int AS cells FROM ${c}`,
    );
    const counts = totals ?? { media: 0, cells: 0 };
    await this.db
      .insert(mapCellsRebuilds)
      .values({ id: true, rebuiltAt: at, mediaCount: counts.media })
      .onConflictDoUpdate({ target: mapCellsRebuilds.id, set: { rebuiltAt: at, mediaCount: counts.media } });
    return { ...counts, drift };
  }

  /**
   * Makes the ledger hold exactly the media placed in public, where they are, in one statement: the
   * media and the ledger are compared in one join (a fifth of the time of an anti-join each way) and
   * only the rows that differ are deleted or written, so a ledger the writes kept right costs reads only.
   */
  async #repairCounted(): Promise<RebuildReport['drift']> {
    const counted = mapCountedMedia;
    const s = alias(mapCountedMedia, 's');
    const [drift] = await queryRows<RebuildReport['drift']>(
      this.db,
      sql`WITH fresh AS (
            SELECT ${media.id} AS "mediaId", ${media.latitude} AS latitude, ${media.longitude} AS longitude
            FROM ${media} WHERE ${placedOnMap}
          ), diff AS MATERIALIZED (
            SELECT coalesce(f."mediaId", ${s.mediaId}) AS "mediaId", f.latitude, f.longitude, f."mediaId" IS NOT NULL AS present
            FROM fresh f FULL JOIN ${mapCountedMedia} AS ${s} ON ${s.mediaId} = f."mediaId"
            WHERE (f.latitude, f.longitude) IS DISTINCT FROM (${s.latitude}, ${s.longitude})
          ), stale AS (
            DELETE FROM ${mapCountedMedia} AS ${s} USING diff WHERE NOT diff.present AND ${s.mediaId} = diff."mediaId" RETURNING 1
          ), missing AS (
            INSERT INTO ${mapCountedMedia} (${namesOf(counted.mediaId, counted.latitude, counted.longitude)})
            SELECT "mediaId", latitude, longitude FROM diff WHERE present
            ON CONFLICT (${nameOf(counted.mediaId)}) DO UPDATE
              SET ${nameOf(counted.latitude)} = excluded.${nameOf(counted.latitude)},
                  ${nameOf(counted.longitude)} = excluded.${nameOf(counted.longitude)}
            RETURNING 1
          )
          SELECT (SELECT count(*) FROM stale)::int AS stale, (SELECT count(*) FROM missing)::int AS missing`,
    );
    return returned(drift, 'map-cells.repair');
  }

  async lastRebuild(): Promise<{ rebuiltAt: Date; mediaCount: number } | null> {
    const [row] = await this.db.select().from(mapCellsRebuilds);
    return row ?? null;
  }
}
