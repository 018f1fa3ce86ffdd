/**
 * The query plans of a scenario, as PostgreSQL chooses them for the statements the code really sends:
 * the scenario's repository calls run in this process against the scratch database, every statement
 * they send is caught at the pg pool, and each is explained with its own values. A benchmark prints
 * the plans' scan lines, so docs/benchmarks.md can show that a route reads an index, not the table.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../../src/platform/db/database.ts';
import { Transactions } from '../../src/platform/db/transactions.ts';

export interface Plan {
  scenario: string;
  statement: string;
  plan: string[];
}

type Query = { text: string; values?: unknown[] };

/** Runs the scenarios with repositories built on a caught pool, then explains what they sent. */
export async function capturePlans(
  url: string,
  scenarios: Record<string, (transactions: Transactions) => Promise<unknown>>,
  options: { analyze?: boolean } = {},
): Promise<Plan[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const sent: Query[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [first, second] = args as [string | Query, unknown[] | undefined];
    sent.push(
      typeof first === 'string'
        ? { text: first, values: second }
        : { text: first.text, values: first.values ?? second },
    );
    return query(...args);
  };
  const transactions = new Transactions(drizzle({ client: pool }) as unknown as Db, () => {});
  const plans: Plan[] = [];
  try {
    for (const [scenario, run] of Object.entries(scenarios)) {
      sent.length = 0;
      await run(transactions);
      const statements = [...sent];
      for (const statement of statements) {
        const explain = options.analyze ? 'EXPLAIN (ANALYZE, BUFFERS)' : 'EXPLAIN';
        const explained = await query(`${explain} ${statement.text}`, statement.values ?? []);
        const plan = (explained as { rows: Array<{ 'QUERY PLAN': string }> }).rows.map((row) => row['QUERY PLAN']);
        plans.push({ scenario, statement: statement.text.replace(/\s+/g, ' ').slice(0, 120), plan });
      }
    }
  } finally {
    await pool.end();
  }
  return plans;
}

/** The lines of a plan that say how rows are read (scans), for the report. */
export const scanLines = (plan: string[]): string[] =>
  plan.filter((line) => /Scan|Seq|Index/.test(line)).map((line) => line.trim().replace(/\s+\(cost=.*$/, ''));
