/**
 * The query plans of a scenario, as PostgreSQL chooses them for the statements the code really sends:
 * the scenario's repository calls run in this process against the scratch database, every statement
 * they send is caught at the pg pool, and each is explained twice: planned for its own values, and as
 * the generic plan PostgreSQL keeps for a prepared statement once it judges that plan no costlier
 * (`plan_cache_mode = force_generic_plan`), which is the one most requests run. A benchmark prints the
 * plans' scan lines, so docs/benchmarks.md can show that a route reads an index, not the table, and
 * whether PostgreSQL keeps that generic plan for the scenario's values or plans the statement again at
 * every execution (eight executions with them, then `pg_prepared_statements`): planning can cost more
 * than the read, and grow with the tables (the follow lists at a million, docs/benchmarks.md).
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../../src/platform/db/database.ts';
import { Transactions } from '../../src/platform/db/transactions.ts';
import { countGenericPlanRuns, explainKeptPlan } from '../../test/helpers/kept-plan.ts';
import { catchStatements } from '../../test/helpers/statement-counter.ts';

export interface Plan {
  scenario: string;
  statement: string;
  plan: string[];
  /** The generic plan: made without the values, kept for later executions. */
  kept: string[];
  /** Of eight executions with the scenario's values, how many ran the generic plan (0: planned at every one). */
  genericRuns: number;
}

type Query = { text: string; values: unknown[] };

/** Runs the scenarios with repositories built on a caught pool, then explains what they sent. */
export async function capturePlans(
  url: string,
  scenarios: Record<string, (transactions: Transactions) => Promise<unknown>>,
  options: { analyze?: boolean } = {},
): Promise<Plan[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  // Taken before the pool is caught: the EXPLAINs below are not recorded as the scenario's statements.
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const { sent } = catchStatements(pool as unknown as Parameters<typeof catchStatements>[0]);
  const transactions = new Transactions(drizzle({ client: pool }) as unknown as Db, () => {});
  const plans: Plan[] = [];
  try {
    for (const [scenario, run] of Object.entries(scenarios)) {
      sent.length = 0;
      await run(transactions);
      const statements = [...sent];
      for (const statement of statements) {
        const explain = options.analyze ? 'EXPLAIN (ANALYZE, BUFFERS)' : 'EXPLAIN';
        const explained = await query(`${explain} ${statement.text}`, statement.values);
        const kept = await keptPlan(pool, statement);
        plans.push({
          scenario,
          statement: statement.text.replace(/\s+/g, ' ').slice(0, 120),
          plan: planLines(explained),
          kept,
          genericRuns: await genericRunsOf(pool, statement),
        });
      }
    }
  } finally {
    await pool.end();
  }
  return plans;
}

/** Of eight executions of the statement with its values on one session, those that ran the generic plan. */
async function genericRunsOf(pool: pg.Pool, statement: Query): Promise<number> {
  const client = await pool.connect();
  try {
    const run = async (text: string) => (await client.query(text)).rows;
    return await countGenericPlanRuns(
      run,
      statement.text,
      Array.from({ length: 8 }, () => statement.values),
    );
  } finally {
    client.release();
  }
}

const planLines = (explained: unknown): string[] =>
  (explained as { rows: Array<{ 'QUERY PLAN': string }> }).rows.map((row) => row['QUERY PLAN']);

/** The generic plan, explained on a connection of its own (SET LOCAL and PREPARE need one session). */
async function keptPlan(pool: pg.Pool, statement: Query): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    return await explainKeptPlan(async (text) => (await client.query(text)).rows, statement.text, statement.values);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

/**
 * The lines of a plan that say how rows are read (scans) and where they are cut and sorted (a Limit
 * above an index in order stops early; a Sort under it has read every matching row first).
 */
export const scanLines = (plan: string[]): string[] =>
  plan
    .filter((line) => /Scan|Seq|Index|^\s*(->\s+)?(Limit|Sort|Incremental Sort)\s/.test(line))
    .map((line) => line.trim().replace(/\s+\(cost=.*$/, ''));

/** The plan's nodes without their conditions, which name values in one plan and parameters in the other. */
const nodesOf = (lines: string[]): string =>
  lines.filter((line) => !/^(Index Cond|Sort Key|Sort Method):/.test(line)).join('\n');

/** Prints each statement's scan lines, planned for its values and as kept (when their nodes differ). */
export function printPlans(plans: Plan[]): void {
  console.log('\nquery plans (PostgreSQL): how each statement reads its rows, planned for its values and as kept');
  for (const plan of plans) {
    console.log(`- ${plan.scenario}: ${plan.statement}`);
    if (plan.genericRuns === 0)
      console.log('  planned again at every execution (no generic plan kept for these values)');
    const forValues = scanLines(plan.plan);
    const kept = scanLines(plan.kept);
    const same = nodesOf(forValues) === nodesOf(kept);
    console.log(same ? '  for its values and as kept:' : '  for its values:');
    for (const line of forValues) console.log(`    ${line}`);
    if (same) continue;
    console.log('  as kept (generic plan):');
    for (const line of kept) console.log(`    ${line}`);
  }
}
