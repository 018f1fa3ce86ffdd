/**
 * The Drizzle tables and the migrated schema agree: every table the migrations create has a Drizzle
 * definition in its area, and each definition names exactly the table's columns, with the same SQL
 * types and nullability. A migration that adds a column the code does not declare (or the reverse)
 * fails here rather than in a query.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../src/platform/db/database.ts';
import { queryRows } from '../../src/platform/db/rows.ts';
import { openTestDatabase } from '../helpers/database.ts';

const sourceDir = new URL('../../src/', import.meta.url);

/** Every PgTable exported by a module under src/ (read models re-export their area's tables: counted once). */
async function drizzleTables(): Promise<PgTable[]> {
  const tables = new Set<PgTable>();
  const files = readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /(^|\/)(tables|audit-log)\.ts$/.test(file),
  );
  for (const file of files) {
    const module: Record<string, unknown> = await import(new URL(file, sourceDir).href);
    for (const value of Object.values(module)) if (is(value, PgTable)) tables.add(value);
  }
  return [...tables];
}

interface DbColumn {
  table_name: string;
  column_name: string;
  sql_type: string;
  not_null: boolean;
}

describe('Drizzle tables and migrations', () => {
  let database: Database;
  let columns: DbColumn[];
  let tables: PgTable[];
  before(async () => {
    database = await openTestDatabase();
    columns = await queryRows<DbColumn>(
      database.db,
      sql`SELECT c.relname AS table_name, a.attname AS column_name,
                 format_type(a.atttypid, a.atttypmod) AS sql_type, a.attnotnull AS not_null
          FROM pg_attribute a
          JOIN pg_class c ON c.oid = a.attrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
            AND c.relname <> 'schema_migrations'`,
    );
    tables = await drizzleTables();
  });
  after(() => database.close());

  it('every migrated table has one Drizzle definition', () => {
    const defined = tables.map((table) => getTableConfig(table).name);
    assert.equal(new Set(defined).size, defined.length, `a table is defined twice: ${defined.sort().join(', ')}`);
    const migrated = [...new Set(columns.map((column) => column.table_name))].sort();
    assert.deepEqual([...defined].sort(), migrated);
  });

  it('each definition has exactly the columns of its table, with their types and nullability', () => {
    for (const table of tables) {
      const config = getTableConfig(table);
      const inDatabase = columns.filter((column) => column.table_name === config.name);
      const declared = config.columns.map((column) => ({
        column: column.name,
        type: column.getSQLType().replace(/^timestamp\b(?! with)/, 'timestamp without time zone'),
        notNull: column.notNull,
      }));
      const migrated = inDatabase.map((column) => ({
        column: column.column_name,
        type: column.sql_type,
        notNull: column.not_null,
      }));
      const byName = (a: { column: string }, b: { column: string }) => a.column.localeCompare(b.column);
      assert.deepEqual(declared.sort(byName), migrated.sort(byName), `table ${config.name}`);
    }
  });
});
