/** Transactions on the PostgreSQL pool give their connection back, whatever happens to it. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { onPostgresOnly, openTestDatabase, postgresUrlOf } from '../../../test/helpers/database.ts';
import type { Database } from './database.ts';
import { isDatabaseUnavailable, uniqueViolation } from './errors.ts';
import { openPostgres, type PostgresDatabase } from './postgres-database.ts';

/**
 * Ends the session `pid` from another process while this one waits: the pool's idle connection has
 * not read the server's notice yet when the next transaction takes it, as when a restart or
 * pg_terminate_backend lands between two requests.
 */
function terminateWhileBlocked(url: string, pid: number): void {
  const script = `import pg from 'pg';
const client = new pg.Client(${JSON.stringify(url)});
await client.connect();
await client.query('SELECT pg_terminate_backend($1)', [${pid}]);
await client.end();`;
  const { status, stderr } = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(status, 0, stderr);
}

describe('transactions on the PostgreSQL pool', onPostgresOnly, () => {
  let database: Database;
  let url: string;
  let single: PostgresDatabase;
  before(async () => {
    database = await openTestDatabase();
    url = await postgresUrlOf(database);
    await database.db.execute(sql`CREATE TABLE pool_probe (n integer NOT NULL UNIQUE)`);
    single = openPostgres(url, 1);
  });
  after(async () => {
    await single?.close();
    await database?.close();
  });

  const sessionId = async () =>
    (await single.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const checkedOut = () => single.pool.totalCount - single.pool.idleCount;

  it('gives back a connection whose BEGIN fails because the server ended it, and serves the next one', async () => {
    const ended = await sessionId();
    terminateWhileBlocked(url, ended);
    await assert.rejects(
      single.db.transaction((tx) => tx.execute(sql`INSERT INTO pool_probe (n) VALUES (1)`)),
      (error) => isDatabaseUnavailable(error),
    );
    assert.equal(checkedOut(), 0, 'no connection is left checked out');
    await single.db.transaction((tx) => tx.execute(sql`INSERT INTO pool_probe (n) VALUES (2)`));
    assert.notEqual(await sessionId(), ended, 'the ended connection is not pooled again');
    const rows = await single.pool.query<{ n: number }>('SELECT n FROM pool_probe ORDER BY n');
    assert.deepEqual(
      rows.rows.map((row) => row.n),
      [2],
    );
  });

  it('keeps a healthy connection pooled after a transaction that failed on a statement', async () => {
    const before = await sessionId();
    await assert.rejects(
      single.db.transaction((tx) => tx.execute(sql`INSERT INTO pool_probe (n) VALUES (2)`)),
      (error) => uniqueViolation(error) === 'pool_probe_n_key',
    );
    assert.equal(checkedOut(), 0);
    assert.equal(await sessionId(), before, 'the same session serves on');
  });
});
