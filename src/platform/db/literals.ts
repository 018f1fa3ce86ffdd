/**
 * Constants written into a statement's text instead of bound as parameters (Drizzle binds every
 * value). PostgreSQL then plans with what they say: `kind = 'post' AND flag < 2` lets the planner
 * count the rows they keep and use an index whose predicate names them (media_posts_created is
 * `WHERE kind = 'post'`), which `kind = $3 AND flag < $5` hides from a plan made once for all values.
 * Only for values the code fixes, never for what a request carries.
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
