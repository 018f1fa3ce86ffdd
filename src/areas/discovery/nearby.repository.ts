/**
 * Media nearest a centre, in keyset pages. The first page and the pages after a cursor read the
 * media_earth_position GiST index in distance order (a nearest-neighbour scan that stops after the
 * page), which PostgreSQL does only when the order is the distance alone; the key also holds the id,
 * so media at exactly the same distance are settled here (settleTies), as the keyset orders them.
 */
import { and, asc, desc, type Placeholder, sql } from 'drizzle-orm';
import { literal } from '../../platform/db/literals.ts';
import { byKey, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import {
  defaultPageLimit,
  defineKeyset,
  keysetTemplate,
  type PageRequest,
  pageDirections,
  positionValues,
} from '../../platform/http/pagination.ts';
import { listedMediaColumns, mediaRows as media } from '../media/read-model.ts';
import type { Centre, DistancedMedia } from './geo-media.repository.ts';
import { centre, distance, earthPoint, placedInPublic, position, withinDistance } from './geo-sql.ts';

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

/**
 * The page size most requests use, written into its own statements: with a LIMIT placeholder
 * PostgreSQL judged the plan made once dearer than one made for each request's values, and planned
 * every request again. The nearest-neighbour scan is the right plan whatever the centre and however
 * many media are near, so a plan made once serves them all (other sizes keep the placeholder).
 */
const commonLimit = defaultPageLimit + 1;
/** Drizzle's limit() binds a number; SQL in its place is written into the statement as it is. */
const literalLimit = (limit: number) => literal(limit) as unknown as Placeholder;

export class NearbyRepository extends Repository {
  readonly #pages = byKey(pageDirections, (direction) => {
    const { where } = keysetTemplate(nearbyKeyset, direction);
    // Backwards there is no nearest-neighbour scan: the rows closer than the cursor are sorted.
    const orderBy = direction === 'before' ? [desc(chord), desc(media.id)] : [asc(chord)];
    const statement = (name: string, limit: number | Placeholder) =>
      new PreparedRead<NearbyRow>(this.source, name, (db) =>
        db
          .select({ ...listedMediaColumns, distance, chord })
          .from(media)
          .where(and(placedInPublic, withinDistance, where))
          .orderBy(...orderBy)
          .limit(limit),
      );
    return {
      common: statement(`discovery.nearby.${direction}.${commonLimit}`, literalLimit(commonLimit)),
      any: statement(`discovery.nearby.${direction}`, sql.placeholder('limit')),
    };
  });

  /** The first media (by id) at exactly `chord` from the centre, after the cursor: a page's tie group. */
  readonly #atChord = byKey(['first', 'after'] as const, (direction) => {
    const { where } = keysetTemplate(nearbyKeyset, direction);
    return new PreparedRead<NearbyRow>(this.source, `discovery.nearby.atChord.${direction}`, (db) =>
      db
        .select({ ...listedMediaColumns, distance, chord })
        .from(media)
        .where(and(placedInPublic, withinDistance, sql`${chord} = ${sql.placeholder('chord')}`, where))
        .orderBy(asc(media.id))
        .limit(sql.placeholder('limit')),
    );
  });

  /** Media within `distanceMetres` of the centre, nearest first (limit + 1 rows of the page). */
  async nearby(at: Centre, distanceMetres: number, page: PageRequest): Promise<NearbyRow[]> {
    const values = { centre: earthPoint(at), distance: distanceMetres, ...positionValues(page), limit: page.limit + 1 };
    const statements = this.#pages[page.direction];
    const rows = await (values.limit === commonLimit ? statements.common : statements.any).run(values);
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
