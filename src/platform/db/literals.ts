/**
 * Constants written into a statement's text instead of bound as parameters (Drizzle binds every
 * value). PostgreSQL then plans with what they say: `kind = 'post' AND flag < 2` lets the planner
 * count the rows they keep and use an index whose predicate names them (media_posts_created is
 * `WHERE kind = 'post'`), which `kind = $3 AND flag < $5` hides from a plan made once for all values.
 * Only for values the code fixes, never for what a request carries.
 */
import { type Placeholder, type SQL, sql } from 'drizzle-orm';

export function literal(value: string | number | boolean): SQL {
  if (typeof value === 'boolean') return sql.raw(value ? 'true' : 'false');
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return sql.raw(String(value));
  }
  return sql.raw(`'${value.replaceAll("'", "''")}'`);
}

/**
 * The opposite: a request's value no plan can see, `(SELECT $n::uuid)` (an InitPlan, evaluated once
 * per execution). PostgreSQL weighs a prepared statement's generic plan against one made for the values
 * at hand; where the values make the latter look cheaper (a heavy user's statistics), it plans again at
 * every execution, which costs more than the read itself and grows with the tables (the follow lists at
 * a million rows: 165 µs of planning against 30 µs of execution a page). Hidden, the value makes both
 * plans cost the same, and the generic one is kept after five executions. Only where one plan is right
 * for every value (a page read in the index's order, whoever's rows they are: docs/development.md).
 */
export function unseenByPlans(value: SQL | Placeholder, type: 'uuid' | 'float8' | 'earth'): SQL {
  return sql`(SELECT ${value}::${sql.raw(type)})`;
}
