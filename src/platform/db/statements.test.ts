/**
 * Named statements (statements.ts) give rows as objects keyed by the columns' names, with the values
 * parsed, on both engines alike (pg's objects on PostgreSQL, PGlite's on PGlite).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../../../test/helpers/database.ts';
import type { Database } from './database.ts';
import { runStatement, statement } from './statements.ts';

const probe = statement<{ id: number; label: string | null; data: unknown; at: Date; 'odd "name"': string }>(
  'statements.test.probe',
  `SELECT id, label, data, at, 'x' AS "odd ""name"""
   FROM statement_probes WHERE id >= $1 ORDER BY id`,
);
const repeated = statement<{ a: number; b: number }>('statements.test.repeated', 'SELECT 1 AS a, 2 AS b, 3 AS a');

describe('named statements', () => {
  let database: Database;
  before(async () => {
    database = await openTestDatabase();
    await database.db.execute(
      sql`CREATE TABLE statement_probes (id int PRIMARY KEY, label text, data jsonb, at timestamptz)`,
    );
    await database.db.execute(sql`
      INSERT INTO statement_probes VALUES
        (1, 'one', '{"k": [1, "v"]}', '2026-11-28 10:00:00.123+00'),
        (2, NULL, NULL, '2026-11-29 00:00:00+00')`);
  });
  after(() => database.close());

  it('give each row as an object of its columns, values parsed, in the columns’ order', async () => {
    const rows = await runStatement(database.db, probe, [1]);
    assert.deepEqual(rows, [
      { id: 1, label: 'one', data: { k: [1, 'v'] }, at: new Date('2026-11-28T10:00:00.123Z'), 'odd "name"': 'x' },
      { id: 2, label: null, data: null, at: new Date('2026-11-29T00:00:00Z'), 'odd "name"': 'x' },
    ]);
    assert.deepEqual(Object.keys(rows[0]!), ['id', 'label', 'data', 'at', 'odd "name"']);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
  });

  it('give the same rows at a later run, and none when nothing matches', async () => {
    assert.deepEqual(await runStatement(database.db, probe, [2]), [
      { id: 2, label: null, data: null, at: new Date('2026-11-29T00:00:00Z'), 'odd "name"': 'x' },
    ]);
    assert.deepEqual(await runStatement(database.db, probe, [3]), []);
  });

  it('keep a name given twice once, with its last value', async () => {
    const [row] = await runStatement(database.db, repeated, []);
    assert.deepEqual(row, { a: 3, b: 2 });
    assert.deepEqual(Object.keys(row!), ['a', 'b']);
  });
});
