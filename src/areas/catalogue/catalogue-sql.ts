/** SQL fragments the catalogue's repositories share: what "live" means, and the search arms. */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { establishments, offers } from './tables.ts';

/**
 * An offer is live when it is active, inside its validity window at `now` (valid_from inclusive,
 * valid_until exclusive; a missing bound is open) and its establishment, if it has one, is active.
 * The caller joins establishments (LEFT JOIN on offers.establishment_id).
 */
export const offerLive = (now: Date): SQL =>
  sql`(${offers.active}
    AND (${offers.validFrom} IS NULL OR ${offers.validFrom} <= ${now})
    AND (${offers.validUntil} IS NULL OR ${offers.validUntil} > ${now})
    AND (${offers.establishmentId} IS NULL OR ${establishments.active} IS TRUE))`;

/**
 * A search of a generated `search_text` column: full text (`simple` configuration, the same expression
 * as the GIN index of migration 1000) or typo-tolerant words (pg_trgm `<%`, served by the trigram
 * index), ranked by the sum of the text rank and the word similarity.
 */
export function textSearch(column: AnyColumn, q: string): { matches: SQL; score: SQL<number> } {
  const document = sql`to_tsvector('simple', ${column})`;
  const query = sql`plainto_tsquery('simple', geo_fold(${q}))`;
  return {
    matches: sql`(${document} @@ ${query} OR geo_fold(${q}) <% ${column})`,
    score: sql<number>`(ts_rank(${document}, ${query}) + word_similarity(geo_fold(${q}), ${column}))::float8`,
  };
}

/** In an upsert's RETURNING: true when the row was inserted, false when an existing row was updated. */
export const insertedRow = sql<boolean>`(xmax = 0)`;
