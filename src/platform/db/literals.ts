/**
 * Constants written into a statement's text instead of bound as parameters. A prepared statement is
 * planned once only when PostgreSQL judges its generic plan (made without the parameters' values) no
 * costlier than a plan made for the values at hand; a rule such as `kind = $3 AND flag < $5` hides
 * from the generic plan what `kind = 'post' AND flag < 2` tells it, so PostgreSQL kept planning the
 * likes and bookmarks lists again on every execution (about 0.2 ms of its CPU each). Only for values
 * the code fixes, never for what a request carries.
 */
import { type SQL, sql } from 'drizzle-orm';

export function literal(value: string | number | boolean): SQL {
  if (typeof value === 'boolean') return sql.raw(value ? 'true' : 'false');
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return sql.raw(String(value));
  }
  return sql.raw(`'${value.replaceAll("'", "''")}'`);
}
