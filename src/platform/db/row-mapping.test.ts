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

const tags = pgTable('row_mapping_tags', { probeId: uuid('probe_id'), tag: text('tag') });

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
        ('00000000-0000-4000-8000-000000000002', NULL, 2, NULL, NULL),
        -- A year before 1000 is read by new Date, as Drizzle reads every timestamptz.
        ('00000000-0000-4000-8000-000000000003', 'old', 3, '[]', '0500-01-02 03:04:05.5+00')`);
    await database.db.execute(sql`CREATE TABLE row_mapping_tags (probe_id uuid, tag text)`);
    await database.db.execute(sql`INSERT INTO row_mapping_tags VALUES ('00000000-0000-4000-8000-000000000001', 'x')`);
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

  it('maps nested selections of inner joins as Drizzle does', async () => {
    const nested = () =>
      database.db
        .select({
          probe: { id: probes.id, name: probes.name, at: probes.at },
          tag: { tag: tags.tag },
          count: probes.count,
        })
        .from(probes)
        .innerJoin(tags, eq(tags.probeId, probes.id))
        .where(eq(probes.count, sql.placeholder('count')));
    const expected = await nested().execute({ count: 1 });
    const prepared = compileRowMapping(nested().prepare('rowMapping.nested'));
    assert.equal(typeof (prepared as unknown as { customResultMapper?: unknown }).customResultMapper, 'function');
    assert.deepEqual(await prepared.execute({ count: 1 }), expected);
    assert.deepEqual(Object.keys(expected[0] ?? {}), ['probe', 'tag', 'count']);
  });

  it("leaves a left join to Drizzle's mapping (it sets a table of nulls to null)", async () => {
    const nested = () =>
      database.db
        .select({ probe: { id: probes.id }, tag: { tag: tags.tag } })
        .from(probes)
        .leftJoin(tags, eq(tags.probeId, probes.id))
        .where(eq(probes.count, sql.placeholder('count')));
    const prepared = compileRowMapping(nested().prepare('rowMapping.leftJoin'));
    assert.equal((prepared as unknown as { customResultMapper?: unknown }).customResultMapper, undefined);
    assert.deepEqual(await prepared.execute({ count: 2 }), [
      { probe: { id: '00000000-0000-4000-8000-000000000002' }, tag: null },
    ]);
  });
});
