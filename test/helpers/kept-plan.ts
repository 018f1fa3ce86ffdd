/**
 * The generic plan of a statement: the one PostgreSQL keeps for a prepared statement after five
 * executions when it judges it no costlier than a plan made for the values at hand, and so the one
 * most requests run. Tests hold a hot list's kept plan to its index on a skewed seed (one owner with
 * thousands of rows among owners with a few), where a plan that sorts all of the owner's rows would
 * cost milliseconds a page.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/rows.ts';
import type { Transactions } from '../../src/platform/db/transactions.ts';

/** The lines of EXPLAIN for `text`'s generic plan, with `values` given to EXECUTE (they are not seen by it). */
export function keptPlan(transactions: Transactions, text: string, values: readonly unknown[]): Promise<string[]> {
  return transactions.run(async () => {
    const db = transactions.db;
    await db.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
    await db.execute(sql.raw(`PREPARE kept_plan AS ${text}`));
    try {
      const bound = values.map(literalOf).join(', ');
      const rows = await queryRows<{ 'QUERY PLAN': string }>(
        db,
        sql.raw(`EXPLAIN EXECUTE kept_plan${values.length > 0 ? `(${bound})` : ''}`),
      );
      return rows.map((row) => row['QUERY PLAN']);
    } finally {
      await db.execute(sql.raw('DEALLOCATE kept_plan'));
    }
  });
}

const literalOf = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replaceAll("'", "''")}'`;
};

/** The line under the plan's first Limit: what the page is read from. */
export function readUnderLimit(plan: string[]): string {
  const limit = plan.findIndex((line) => /^\s*(->\s+)?Limit\s/.test(line));
  return limit < 0 ? '' : (plan[limit + 1] ?? '');
}
