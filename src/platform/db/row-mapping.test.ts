import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { openTestDatabase } from '../../../test/helpers/database.ts';
import { timestamptz } from './columns.ts';
import type { Database } from './database.ts';
import { PreparedRead } from './prepared-reads.ts';
import { compileRowMapping } from './row-mapping.ts';

const probes = pgTable('row_mapping_probes', {
  id: uuid('id').primaryKey(),
  name: text('name'),
  count: integer('count').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>(),
  at: timestamptz('at'),
});

describe('compiled row mapping', () => {
  let database: Database;
  before(async () => {
    database = await openTestDatabase();
    await database.db.execute(
      sql`CREATE TABLE row_mapping_probes (id uuid PRIMARY KEY, name text, count integer NOT NULL, data jsonb, at timestamptz)`,
    );
    await database.db.execute(sql`
      INSERT INTO row_mapping_probes VALUES
        ('00000000-0000-4000-8000-000000000001', 'one', 1, '{"a": [1, "x"]}', '2026-11-28 10:00:00.123+00'),
        ('00000000-0000-4000-8000-000000000002', NULL, 2, NULL, NULL)`);
  });
  after(() => database.close());

  const flat = () => ({
    ...getTableColumns(probes),
    doubled: sql<number>`${probes.count} * 2`.mapWith(Number).as('doubled'),
  });

  it("gives a prepared flat select the very rows Drizzle's own mapping gives", async () => {
    const expected = await database.db.select(flat()).from(probes).orderBy(probes.id);
    const read = new PreparedRead(database, 'rowMapping.flat', (db) =>
      db.select(flat()).from(probes).orderBy(probes.id),
    );
    for (let run = 0; run < 2; run++) assert.deepEqual(await read.run({}), expected);
    const prepared = compileRowMapping(database.db.select(flat()).from(probes).prepare('rowMapping.flat.probe'));
    assert.equal(typeof (prepared as unknown as { customResultMapper?: unknown }).customResultMapper, 'function');
    assert.ok(expected[0]?.at instanceof Date, 'timestamps decoded as Drizzle decodes them');
    assert.deepEqual(Object.keys(expected[0] ?? {}), ['id', 'name', 'count', 'data', 'at', 'doubled']);
  });

  it("leaves nested selections to Drizzle's mapping", async () => {
    const nested = () =>
      database.db
        .select({ probe: { id: probes.id, name: probes.name }, count: probes.count })
        .from(probes)
        .where(eq(probes.count, sql.placeholder('count')));
    const prepared = compileRowMapping(nested().prepare('rowMapping.nested'));
    assert.equal((prepared as unknown as { customResultMapper?: unknown }).customResultMapper, undefined);
    assert.deepEqual(await prepared.execute({ count: 2 }), [
      { probe: { id: '00000000-0000-4000-8000-000000000002', name: null }, count: 2 },
    ]);
  });
});
