/** A connection checked out of the PostgreSQL pool: timed only when it must wait, and within its bounds. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { createEmptyPostgresDatabase, onPostgresOnly } from '../../../test/helpers/database.ts';
import { isDatabaseUnavailable } from './errors.ts';
import { openPool } from './pool-checkout.ts';

/** How many timers `work` starts (setTimeout, which pg-pool's and pg's timers use). */
async function timersStartedBy(work: () => Promise<void>): Promise<number> {
  const original = globalThis.setTimeout;
  let started = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    started += 1;
    return original(...args);
  }) as typeof setTimeout;
  try {
    await work();
  } finally {
    globalThis.setTimeout = original;
  }
  return started;
}

describe('checking a connection out of the PostgreSQL pool', onPostgresOnly, () => {
  let database: { url: string; drop(): Promise<void> };
  let pool: pg.Pool;
  before(async () => {
    database = await createEmptyPostgresDatabase(process.env.DATABASE_URL ?? '');
    pool = openPool({ connectionString: database.url, max: 1 }, 300);
  });
  after(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('starts no timer when an idle connection serves the checkout', async () => {
    await pool.query('SELECT 1');
    assert.equal(pool.idleCount, 1);
    let client: pg.PoolClient | undefined;
    const started = await timersStartedBy(async () => {
      client = await pool.connect();
    });
    // (Giving it back starts the pool's idle timer, as it always has: not the checkout's.)
    client!.release();
    assert.equal(started, 0);
  });

  it('fails a checkout that waits longer than the timeout for a busy pool, as the database being unavailable', async () => {
    const held = await pool.connect();
    try {
      const waited = performance.now();
      await assert.rejects(pool.query('SELECT 1'), (error: Error) => {
        assert.equal(error.message, 'timeout exceeded when trying to connect');
        assert.ok(isDatabaseUnavailable(error));
        return true;
      });
      assert.ok(performance.now() - waited >= 250, 'it waited for the timeout');
    } finally {
      held.release();
    }
    // The connection handed to the timed-out checkout once free went back to the pool: it serves again.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(pool.totalCount - pool.idleCount, 0);
    assert.equal((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
  });

  it('serves a checkout that waits for a busy pool within the timeout', async () => {
    const held = await pool.connect();
    const waiting = pool.connect();
    setTimeout(() => held.release(), 50);
    const client = await waiting;
    assert.equal((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
    client.release();
  });
});

describe('opening a connection to a server that does not answer', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  before(async () => {
    // Accepts the connection and never answers PostgreSQL's startup: a network partition's hang.
    silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it('fails within the timeout, as the database being unavailable, and leaves the pool empty', async () => {
    const { port } = silent.address() as { port: number };
    const pool = openPool({ connectionString: `postgres://nobody@127.0.0.1:${port}/none`, max: 1 }, 200);
    pool.on('error', () => {});
    try {
      await assert.rejects(pool.query('SELECT 1'), (error: Error) => {
        assert.equal(error.message, 'Connection terminated due to connection timeout');
        assert.ok(isDatabaseUnavailable(error));
        return true;
      });
      assert.equal(pool.totalCount, 0);
    } finally {
      await pool.end();
    }
  });
});
