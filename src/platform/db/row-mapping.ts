/**
 * Drizzle's row mapping, decided once per prepared statement instead of at every value of every row.
 * Drizzle maps each row of a select (arrays, as PostgreSQL sends them) to its object with
 * `mapResultRow`, which for every value of every row asks again what kind each selected field is
 * (`is(field, Column)`, then SQL, Subquery, aliased SQL) and walks its path with an iterator: on the
 * hot lists that was the largest part of the server's own work after the sockets (a CPU profile of
 * "my media": 9 % of the busy time in Drizzle's mapping). The mapper below takes the same decoders and
 * paths, found once, and gives the same objects: the same keys in the same order, `null` for a value
 * PostgreSQL sent as null (no decoder called).
 *
 * The mapper is written as one function returning an object literal (`new Function`, from the
 * selection's own key names): every row gets the same hidden class, so the presenters reading them
 * stay monomorphic, and no key is stored by a computed name. A column whose decoder returns its value
 * as it is gets no call; a timestamptz (which Drizzle asks the driver to leave as text, then builds
 * with `new Date(text)`) is read by the pool's parser of PostgreSQL's form (pg-type-parsers.ts), the
 * same Date, with `new Date(text)` for any other form.
 * It is set as the prepared query's `customResultMapper`, the hook Drizzle's own relational queries use.
 */
import { Column, getTableName, is, SQL, Subquery, type Table } from 'drizzle-orm';
import { parseIsoTimestamptz } from './pg-type-parsers.ts';

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
  joinsNotNullableMap?: Record<string, boolean>;
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

const keepsValue = Column.prototype.mapFromDriverValue;

/** A timestamptz read as Drizzle reads it (`new Date(text)`), PostgreSQL's usual form by character codes. */
function timestamptzOf(value: unknown): unknown {
  return typeof value === 'string' ? (parseIsoTimestamptz(value) ?? new Date(value)) : value;
}

/** How one value is decoded: 'as is', the timestamptz reader, or its decoder's method. */
function decodingOf(field: unknown, decoder: Decoder): 'asIs' | 'timestamptz' | 'decoder' {
  if (decoder.mapFromDriverValue === keepsValue) return 'asIs';
  const column = field as { columnType?: string; withTimezone?: boolean };
  if (is(field, Column) && column.columnType === 'PgTimestamp' && column.withTimezone === true) return 'timestamptz';
  return 'decoder';
}

/** A selection's keys as a tree, in the order Drizzle creates them (first appearance); leaves are value indexes. */
type Shape = Map<string, Shape | number>;

function shapeOf(fields: SelectedField[]): Shape {
  const root: Shape = new Map();
  fields.forEach(({ path }, index) => {
    let node = root;
    for (const [depth, key] of path.entries()) {
      if (depth === path.length - 1) {
        node.set(key, index);
        break;
      }
      let child = node.get(key);
      if (!(child instanceof Map)) {
        child = new Map();
        node.set(key, child);
      }
      node = child;
    }
  });
  return root;
}

/** The mapping function for `fields` (any nesting), as mapResultRow gives it when no table is nullified. */
export function compileRowMapper(fields: SelectedField[]): (row: unknown[]) => Record<string, unknown> {
  const decoders = fields.map(({ field }) => decoderOf(field));
  const value = (index: number) => {
    const raw = `row[${index}]`;
    switch (decodingOf(fields[index]?.field, decoders[index] as Decoder)) {
      case 'asIs':
        return raw;
      case 'timestamptz':
        return `(${raw} === null ? null : timestamptz(${raw}))`;
      case 'decoder':
        return `(${raw} === null ? null : decoders[${index}].mapFromDriverValue(${raw}))`;
    }
  };
  const literal = (shape: Shape): string =>
    `{ ${[...shape].map(([key, node]) => `${JSON.stringify(key)}: ${typeof node === 'number' ? value(node) : literal(node)}`).join(', ')} }`;
  return new Function('decoders', 'timestamptz', `return (row) => (${literal(shapeOf(fields))});`)(
    decoders,
    timestamptzOf,
  );
}

/**
 * Whether Drizzle could set a nested object to null (a left-joined table whose values all came back
 * null): only then is its own mapping kept.
 */
function mayNullify({ fields = [], joinsNotNullableMap }: MappedQuery): boolean {
  if (joinsNotNullableMap === undefined) return false;
  return fields.some(
    ({ path, field }) =>
      path.length === 2 &&
      is(field, Column) &&
      joinsNotNullableMap[getTableName((field as Column).table as Table)] !== true,
  );
}

/** Gives a prepared select the compiled mapping (Drizzle's is kept where it may nullify a joined table). */
export function compileRowMapping<Q>(query: Q): Q {
  const mapped = query as MappedQuery;
  if (mapped.fields === undefined || mapped.customResultMapper !== undefined || mayNullify(mapped)) return query;
  const mapRow = compileRowMapper(mapped.fields);
  mapped.customResultMapper = (rows) => rows.map(mapRow);
  return query;
}
