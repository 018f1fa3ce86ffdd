/**
 * The generic plan of a statement: the one PostgreSQL keeps for a prepared statement after five
 * executions when it judges it no costlier than a plan made for the values at hand, and so the one
 * most requests run. Tests hold a hot list's kept plan to its index on a skewed seed (one owner with
 * thousands of rows among owners with a few), where a plan that sorts all of the owner's rows would
 * cost milliseconds a page; the benchmarks print it (bench/harness/query-plans.ts).
 */
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows } from '../../src/platform/db/rows.ts';
import type { Transactions } from '../../src/platform/db/transactions.ts';

// pg's own conversion of a value to the text it sends (dates, arrays, JSON); pure, so it serves PGlite too.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };

/** A value written as the SQL literal pg would send for it (EXPLAIN of a statement with its values). */
export const literalOf = (value: unknown): string => {
  const text = prepareValue(value);
  return text === null || text === undefined ? 'NULL' : pg.escapeLiteral(String(text));
};

/**
 * EXPLAIN of `text`'s generic plan, its values given to EXECUTE as literals (a utility statement takes
 * no parameters; the generic plan does not see them). `run` sends one statement on one session, inside
 * a transaction the caller opened; the prepared statement is removed on that session whatever happens
 * (a rollback would not remove it). `mode` `custom` explains instead the plan made for the values, the
 * one an unnamed statement (parsed at every execution) always runs.
 */
export async function explainKeptPlan(
  run: (statement: string) => Promise<Array<Record<string, unknown>>>,
  text: string,
  values: readonly unknown[],
  mode: 'generic' | 'custom' = 'generic',
): Promise<string[]> {
  await run(`SET LOCAL plan_cache_mode = force_${mode}_plan`);
  await run(`PREPARE kept_plan AS ${text}`);
  await run('SAVEPOINT kept_plan');
  try {
    const bound = values.length > 0 ? `(${values.map(literalOf).join(', ')})` : '';
    const rows = await run(`EXPLAIN EXECUTE kept_plan${bound}`);
    return rows.map((row) => String(row['QUERY PLAN']));
  } catch (error) {
    await run('ROLLBACK TO SAVEPOINT kept_plan');
    throw error;
  } finally {
    await run('DEALLOCATE kept_plan');
  }
}

/** A plan of `text` (see explainKeptPlan's `mode`), explained in a transaction of the app's database. */
const explainedIn = (
  transactions: Transactions,
  text: string,
  values: readonly unknown[],
  mode: 'generic' | 'custom',
): Promise<string[]> =>
  transactions.run(() =>
    explainKeptPlan((statement) => queryRows(transactions.db, sql.raw(statement)), text, values, mode),
  );

/** The kept plan's lines, explained in a transaction of the app's database. */
export const keptPlan = (transactions: Transactions, text: string, values: readonly unknown[]): Promise<string[]> =>
  explainedIn(transactions, text, values, 'generic');

/** The plan made for `values` (an unnamed statement's), explained in a transaction of the app's database. */
export const plannedFor = (transactions: Transactions, text: string, values: readonly unknown[]): Promise<string[]> =>
  explainedIn(transactions, text, values, 'custom');

/** The line under the plan's first Limit: what the page is read from. */
export function readUnderLimit(plan: string[]): string {
  const limit = plan.findIndex((line) => /^\s*(->\s+)?Limit\s/.test(line));
  return limit < 0 ? '' : (plan[limit + 1] ?? '');
}

/**
 * How many of `executions` (each one's values) ran the generic plan: `text` prepared on one session,
 * executed with each in turn, then `pg_prepared_statements` asked. PostgreSQL keeps the generic plan
 * after five executions when it judges it no costlier than one made for the values; a statement it
 * plans again every time answers 0. `run` sends one statement on that session; the prepared statement
 * is removed whatever happens.
 */
export async function countGenericPlanRuns(
  run: (statement: string) => Promise<Array<Record<string, unknown>>>,
  text: string,
  executions: ReadonlyArray<readonly unknown[]>,
): Promise<number> {
  await run(`PREPARE counted_plan AS ${text}`);
  try {
    for (const values of executions) {
      await run(`EXECUTE counted_plan${values.length > 0 ? `(${values.map(literalOf).join(', ')})` : ''}`);
    }
    const [statement] = await run(
      "SELECT generic_plans::int AS generic FROM pg_prepared_statements WHERE name = 'counted_plan'",
    );
    return Number(statement?.generic ?? 0);
  } finally {
    await run('DEALLOCATE counted_plan');
  }
}

/** The same in a transaction of the app's database. */
export function genericPlanRuns(
  transactions: Transactions,
  text: string,
  executions: ReadonlyArray<readonly unknown[]>,
): Promise<number> {
  return transactions.run(() =>
    countGenericPlanRuns((statement) => queryRows(transactions.db, sql.raw(statement)), text, executions),
  );
}
