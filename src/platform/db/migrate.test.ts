import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase } from '../../../test/helpers/database.ts';
import type { Database } from './database.ts';
import { migrate, readMigrations } from './migrate.ts';

describe('migrations', () => {
  let database: Database;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  it('are all applied, and applying them again does nothing', async () => {
    const files = readMigrations();
    assert.deepEqual(await migrate(database, files), []);
    const rows = await database.withMigrationLock((conn) =>
      conn.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name'),
    );
    assert.deepEqual(
      rows.map((row) => row.name),
      files.map((file) => file.name),
    );
  });

  it('stop start-up when an applied file was edited', async () => {
    const files = readMigrations().map((file, index) => (index === 0 ? { ...file, checksum: 'edited' } : file));
    await assert.rejects(migrate(database, files), /was changed after it was applied/);
  });

  it('apply a new file in its own transaction, and roll back a failing one whole', async () => {
    const files = readMigrations();
    const good = {
      name: '9998_test_good.sql',
      sql: 'CREATE TABLE test_good (id int); INSERT INTO test_good VALUES (1);',
      checksum: 'g',
    };
    const bad = {
      name: '9999_test_bad.sql',
      sql: 'CREATE TABLE test_bad (id int); SELECT * FROM no_such_table;',
      checksum: 'b',
    };
    assert.deepEqual(await migrate(database, [...files, good]), ['9998_test_good.sql']);
    await assert.rejects(migrate(database, [...files, good, bad]));
    const tables = await database.withMigrationLock((conn) =>
      conn.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'test_%' ORDER BY 1",
      ),
    );
    assert.deepEqual(
      tables.map((row) => row.name),
      ['test_good'],
      'the failed migration left nothing behind',
    );
  });

  it('run a .ts data migration through its up(conn), in its transaction, rolled back whole when it throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tms-migrations-'));
    try {
      writeFileSync(
        join(dir, '9996_test_data.ts'),
        `export async function up(conn) {
           await conn.exec('CREATE TABLE test_data (id int)');
           await conn.query('INSERT INTO test_data VALUES ($1), ($2)', [1, 2]);
         }`,
      );
      writeFileSync(
        join(dir, '9997_test_data_bad.ts'),
        `export async function up(conn) {
           await conn.exec('CREATE TABLE test_data_bad (id int)');
           throw new Error('the data could not be read');
         }`,
      );
      const [data, bad] = readMigrations(dir);
      assert.equal(data!.name, '9996_test_data.ts');
      assert.deepEqual(await migrate(database, [...readMigrations(), data!]), ['9996_test_data.ts']);
      assert.deepEqual(await migrate(database, [...readMigrations(), data!]), [], 'applied once');
      await assert.rejects(migrate(database, [...readMigrations(), data!, bad!]), /the data could not be read/);
      const rows = await database.withMigrationLock(async (conn) => ({
        data: await conn.query<{ id: number }>('SELECT id FROM test_data ORDER BY id'),
        bad: await conn.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'test_data_bad'",
        ),
      }));
      assert.deepEqual(
        rows.data.map((row) => row.id),
        [1, 2],
      );
      assert.deepEqual(rows.bad, [], 'the failed data migration left nothing behind');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('run one at a time when started together', async () => {
    const order: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        database.withMigrationLock(async () => {
          order.push(`start ${n}`);
          // Holds the lock a moment, so the others are waiting for it; no clock is involved, the order is the point.
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push(`end ${n}`);
        }),
      ),
    );
    assert.deepEqual(order, ['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });
});
