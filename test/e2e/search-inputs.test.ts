/**
 * What a search costs for the inputs a client may send on purpose: a query with no letter or digit
 * (punctuation, symbols, emoji) is answered with an empty list without a statement, on every search
 * route; a query that has one reads its indexes, never the whole table (a full read of the cities cost
 * a fifth of a second on PostgreSQL and a second on PGlite, and 30 such requests stalled the service).
 * The work is measured in rows, by EXPLAIN ANALYZE of each statement the route sent, not in time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/rows.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { literalOf } from '../helpers/kept-plan.ts';
import { watchStatements } from '../helpers/statement-counter.ts';

/** The statement with its values written in, highest number first ($10 before $1). */
const withValues = (text: string, values: unknown[]) =>
  values.reduceRight<string>(
    (statement, value, index) => statement.replaceAll(`$${index + 1}`, literalOf(value)),
    text,
  );

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows every scan of the plan read: those it returned and those it read to throw away. */
function rowsRead(node: PlanNode): number {
  const own = /Scan$/.test(node['Node Type'])
    ? ((node['Actual Rows'] ?? 0) +
        (node['Rows Removed by Filter'] ?? 0) +
        (node['Rows Removed by Index Recheck'] ?? 0)) *
      (node['Actual Loops'] ?? 1)
    : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);
}

/** The search routes, each with the table it searches (as Drizzle quotes it in its statements). */
const searches = [
  { path: '/api/cities/search', table: '"cities"' },
  { path: '/api/countries/search', table: '"countries"' },
  { path: '/api/regions/search', table: '"regions"' },
  { path: '/api/subregions/search', table: '"subregions"' },
  { path: '/api/establishments/search', table: '"establishments"' },
  { path: '/api/offers/search', table: '"offers"' },
  { path: '/api/users/search', table: '"search_documents"' },
  { path: '/api/media/hashtags/autocomplete', table: 'hashtag_uses' },
];

/** Rows under which reading a whole table is the planner's right choice. */
const smallTable = 1_000;

/** Queries with no letter or digit of any script. */
const unsearchable = ['!', '.', '-', '??', '🙂', '¿¡', '→←', '#!', '* * *', '\u200b!'];
/** Queries that have one, chosen for what a trigram or prefix index makes of them. */
const searchable = ['a', '1', 'a!', 'Q', 'é', 'zz', '東京', 'Москва', '🙂a', 'x'.repeat(60), 'sao paulo', '-1-'];

describe('search inputs', () => {
  let t: TestApp;
  let statements: ReturnType<typeof watchStatements>;
  before(async () => {
    t = await createTestApp();
    statements = watchStatements(t.deps.database);
  });
  after(async () => {
    statements.restore();
    await t.close();
  });

  const search = async (path: string, q: string) => {
    statements.reset();
    const res = await t.request({ method: 'GET', url: `${path}?q=${encodeURIComponent(q)}` });
    const sent = [...statements.sent];
    return { res, sent };
  };

  it('answers a query with no letter or digit with an empty list, without a statement on its table', async () => {
    for (const { path, table } of searches) {
      for (const q of unsearchable) {
        const { res, sent } = await search(path, q);
        assert.equal(res.statusCode, 200, `${path} ${q}: ${res.body}`);
        assert.deepEqual(res.json.data, [], `${path} ${q}`);
        const onTable = sent.filter((statement) => statement.text.includes(table));
        assert.deepEqual(onTable, [], `${path} ${q}: no statement on ${table}`);
      }
    }
  });

  it('reads the cities through their indexes, never the whole table', async (context) => {
    const most = new Map<string, number>();
    const sizes = new Map<string, number>();
    for (const table of ['cities', 'countries', 'regions', 'subregions']) {
      const [row] = await queryRows<{ n: number }>(
        t.deps.database.db,
        sql.raw(`SELECT count(*)::int AS n FROM ${table}`),
      );
      sizes.set(`"${table}"`, row?.n ?? 0);
    }
    assert.ok((sizes.get('"cities"') ?? 0) > 100_000, 'the reference cities are loaded');
    for (const { path, table } of searches.slice(0, 4)) {
      for (const q of searchable) {
        const { res, sent } = await search(path, q);
        assert.equal(res.statusCode, 200, `${path} ${q}: ${res.body}`);
        const onTable = sent.filter((statement) => statement.text.includes(table));
        assert.equal(onTable.length, 1, `${path} ${q}: one search statement`);
        const [statement] = onTable;
        assert.ok(statement, `${path} ${q}: one search statement`);
        const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
          t.deps.database.db,
          sql.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${withValues(statement.text, statement.values)}`),
        );
        const explained = row?.['QUERY PLAN'];
        const [plan] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as Array<{ Plan: PlanNode }>;
        assert.ok(plan, `${path} ${q}: a plan`);
        const read = rowsRead(plan.Plan);
        const size = sizes.get(table) ?? 0;
        most.set(path, Math.max(most.get(path) ?? 0, read));
        // A small table (the regions, the 250 countries) may be read whole: that is its cheapest plan.
        if (size > smallTable) assert.ok(read < size / 2, `${path} ${q}: read ${read} of ${size} rows`);
      }
    }
    context.diagnostic(`most rows read by one search: ${JSON.stringify(Object.fromEntries(most))}`);
  });
});
