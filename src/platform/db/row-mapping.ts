/**
 * Drizzle's row mapping, decided once per prepared statement instead of at every value of every row.
 * Drizzle maps each row of a select (arrays, as PostgreSQL sends them) to its object with
 * `mapResultRow`, which for every value of every row asks again what kind each selected field is
 * (`is(field, Column)`, then SQL, Subquery, aliased SQL) and walks its path with an iterator: on the
 * hot lists that was the largest part of the server's own work after the sockets (a CPU profile of
 * "my media": 9 % of the busy time in Drizzle's mapping). The mapper below takes the same decoders and
 * paths, found once, and gives the same objects: the same keys in the same order, `null` for a value
 * PostgreSQL sent as null (no decoder called).
 * It is set as the prepared query's `customResultMapper`, the hook Drizzle's own relational queries use.
 */
import { Column, is, SQL, Subquery } from 'drizzle-orm';

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** A selected field as Drizzle's prepared query holds it (orderSelectedFields). */
interface SelectedField {
  path: string[];
  field: unknown;
}

/** The part of Drizzle's prepared query (node-postgres and PGlite alike) the mapping reads and sets. */
export interface MappedQuery {
  fields?: SelectedField[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: Drizzle's fields are untyped entities, told apart by is()
function decoderOf(field: any): Decoder {
  if (is(field, Column)) return field as unknown as Decoder;
  // A decoder Drizzle keeps on the SQL of a computed field (`decoder`, not in its public types).
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field._.sql as unknown as { decoder: Decoder }).decoder;
  return field.sql.decoder as Decoder;
}

/** The function mapping one flat row of `fields` (every path one key long) as mapResultRow would. */
export function compileFlatRowMapper(fields: SelectedField[]): (row: unknown[]) => Record<string, unknown> {
  const decoders = fields.map(({ field }) => decoderOf(field));
  const keys = fields.map(({ path }) => path[0] ?? '');
  const count = fields.length;
  return (row) => {
    const result: Record<string, unknown> = {};
    for (let index = 0; index < count; index++) {
      const raw = row[index];
      result[keys[index] as string] = raw === null ? null : (decoders[index] as Decoder).mapFromDriverValue(raw);
    }
    return result;
  };
}

/**
 * Gives a prepared select of flat rows the compiled mapping. Nested selections (`{ user: {...},
 * followedAt }`) keep Drizzle's: compiled the same way, with its rule for left-joined tables, they
 * measured slower than Drizzle's own (the follow lists, in-process, 2026-11-28), so only flat rows,
 * where no table can be nullified, are mapped here.
 */
export function compileRowMapping<Q>(query: Q): Q {
  const mapped = query as MappedQuery;
  if (mapped.fields === undefined || mapped.customResultMapper !== undefined) return query;
  if (!mapped.fields.every(({ path }) => path.length === 1)) return query;
  const mapRow = compileFlatRowMapper(mapped.fields);
  mapped.customResultMapper = (rows) => rows.map(mapRow);
  return query;
}
