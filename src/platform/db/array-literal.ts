/** Arrays as a statement's parameters: ids for `= ANY`, and a bulk load's columns as text. */
import { type SQL, sql } from 'drizzle-orm';

/** Ids as one `uuid[]` parameter (`= ANY(...)`, `unnest(...)`), however many: an IN list takes one each. */
export const uuidArray = (ids: readonly string[]): SQL => sql`${sql.param(ids)}::uuid[]`;

/**
 * A PostgreSQL array's text form ('{1,2}', '{"a","b \"c\""}'), built here for a bulk load's
 * parameters: the drivers' own serialization of an array parameter goes element by element (PGlite's
 * cost a third of a first start's geography load, with the garbage it made), where one joined string
 * is sent as it is and parsed by PostgreSQL in C. Pass it as text cast to the array's type
 * (`$1::text::int[]`). Numbers are written as JavaScript writes them (the shortest text that reads back
 * as the same double); null is NULL; strings are quoted and escaped.
 */
export function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  let text = '{';
  let first = true;
  for (const value of values) {
    if (!first) text += ',';
    first = false;
    if (value === null) text += 'NULL';
    else if (typeof value === 'number') text += value;
    else text += `"${needsEscape.test(value) ? value.replace(escaped, '\\$&') : value}"`;
  }
  return `${text}}`;
}

const needsEscape = /["\\]/;
const escaped = /["\\]/g;
