/**
 * Media nearest a centre, in keyset pages. The first page and the pages after a cursor read the
 * media_earth_position GiST index in distance order (a nearest-neighbour scan that stops after the
 * page), which PostgreSQL does only when the order is the distance alone; the key also holds the id,
 * so media at exactly the same distance are settled here (settleTies), as the keyset orders them.
 */
import { and, asc, desc, sql } from 'drizzle-orm';
import { earthPointOf } from '../../platform/db/earth-point.ts';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keysetTemplate, positionValues } from '../../platform/db/keyset-sql.ts';
import { type PageRequest, pageDirections } from '../../platform/db/page-request.ts';
import { byKey, PlannedOncePageRead, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { mediaFilterText, notHiddenByFilters } from '../filters/read-model.ts';
import { listedMediaColumns, mediaRows as media } from '../media/read-model.ts';
import type { Centre, DistancedMedia } from './geo-media.repository.ts';
import { aroundCentre, placedInPublic, position } from './geo-sql.ts';

/** The centre and distance hidden from the plans: the one plan, the GiST index in distance order, kept (geo-sql.ts). */
const { centre, distance, withinDistance } = aroundCentre('hidden');

/** The straight-line (chord) distance through the earth: what the GiST index orders by, in metres. */
const chord = sql<number>`${position} <-> ${centre}`;

type NearbyRow = DistancedMedia & { chord: number };

/** Nearest first, then by id. */
export const nearbyKeyset = defineKeyset<NearbyRow>({
  name: 'media-nearby',
  shape: ['number', 'uuid'],
  columns: [chord, media.id],
  keyOf: (row) => [row.chord, row.id],
  order: 'asc',
});

const byKeyOrder = (a: NearbyRow, b: NearbyRow) => a.chord - b.chord || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class NearbyRepository extends Repository {
  readonly #pages = byKey(pageDirections, (direction) => {
    const { where } = keysetTemplate(nearbyKeyset, direction);
    // Backwards there is no nearest-neighbour scan: the rows closer than the cursor are sorted.
    const orderBy = direction === 'before' ? [desc(chord), desc(media.id)] : [asc(chord)];
    // One plan serves every centre and density (the scan stops after the page): planned once.
    return new PlannedOncePageRead<NearbyRow>(this.replicaSource, `discovery.nearby.${direction}`, (db, limit) =>
      db
        .select({ ...listedMediaColumns, distance, chord })
        .from(media)
        .where(
          and(
            placedInPublic,
            withinDistance,
            notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)),
            where,
          ),
        )
        .orderBy(...orderBy)
        .limit(limit),
    );
  });

  /** The first media (by id) at exactly `chord` from the centre, after the cursor: a page's tie group. */
  readonly #atChord = byKey(['first', 'after'] as const, (direction) => {
    const { where } = keysetTemplate(nearbyKeyset, direction);
    return new PreparedRead<NearbyRow>(this.replicaSource, `discovery.nearby.atChord.${direction}`, (db) =>
      db
        .select({ ...listedMediaColumns, distance, chord })
        .from(media)
        .where(
          and(
            placedInPublic,
            withinDistance,
            notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)),
            sql`${chord} = ${sql.placeholder('chord')}`,
            where,
          ),
        )
        .orderBy(asc(media.id))
        .limit(sql.placeholder('limit')),
    );
  });

  /** Media within `distanceMetres` of the centre, nearest first (limit + 1 rows of the page). */
  async nearby(at: Centre, distanceMetres: number, page: PageRequest, hiddenBy: string[]): Promise<NearbyRow[]> {
    const values = {
      centre: earthPointOf(at),
      distance: distanceMetres,
      hiddenBy,
      ...positionValues(page),
      limit: page.limit + 1,
    };
    const rows = await this.#pages[page.direction].run(values);
    if (page.direction === 'before') return rows;
    return this.#settleTies(rows, page, values);
  }

  /**
   * The scan orders by distance alone: when the page's last rows tie on it, the whole tie group is
   * read and ordered by id, so no media at that distance is skipped or shown twice across pages.
   */
  async #settleTies(rows: NearbyRow[], page: PageRequest, values: Record<string, unknown>): Promise<NearbyRow[]> {
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length <= page.limit || rows[rows.length - 2]?.chord !== last.chord) {
      return rows.sort(byKeyOrder);
    }
    const closer = rows.filter((row) => row.chord < last.chord);
    const tied = await this.#atChord[page.direction === 'first' ? 'first' : 'after'].run({
      ...values,
      chord: last.chord,
      limit: page.limit + 1 - closer.length,
    });
    return [...closer.sort(byKeyOrder), ...tied];
  }
}
