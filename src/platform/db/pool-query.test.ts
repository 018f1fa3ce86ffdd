/** The pool's query as a checkout: pg-pool's answers and errors, every client given back, a failed one discarded. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { onPostgresOnly } from '../../../test/helpers/database.ts';
import { queryThroughCheckout } from './pool-query.ts';

describe('queryThroughCheckout', onPostgresOnly, () => {
  const pools: pg.Pool[] = [];
  const pool = (max: number) => {
    const made = new pg.Pool({ connectionString: process.env.DATABASE_URL, max });
    // As the service's pools do (pool-query.ts): a client listens for `error` for its whole life.
    made.on('connect', (client) => client.on('error', () => {}));
    queryThroughCheckout(made);
    pools.push(made);
    return made;
  };
  after(() => Promise.all(pools.map((each) => each.end())));

  it('answers a statement, plain or named and prepared, as pg does', async () => {
    const one = pool(1);
    assert.deepEqual((await one.query('SELECT $1::int + 1 AS sum', [41])).rows, [{ sum: 42 }]);
    const named = { name: 'pool-query.test.double', text: 'SELECT $1::int * 2 AS double' };
    for (const value of [2, 21])
      assert.deepEqual((await one.query({ ...named, values: [value] })).rows, [{ double: value * 2 }]);
    assert.equal(one.totalCount, 1, 'one connection served all three');
  });

  it("fails with the server's error, and the pool discards the client that ran it", async () => {
    const one = pool(1);
    const first = await one.query('SELECT pg_backend_pid() AS pid');
    await assert.rejects(one.query('SELECT 1 / 0'), (error: Error & { code?: string }) => error.code === '22012');
    assert.equal(one.totalCount, 0, 'the failed client is not kept');
    const next = await one.query('SELECT pg_backend_pid() AS pid');
    assert.notEqual(next.rows[0].pid, first.rows[0].pid, 'the next statement runs on a new connection');
  });

  it('gives every client back, however many statements wait for one', async () => {
    const two = pool(2);
    const sums = await Promise.all(
      Array.from({ length: 20 }, (_, index) => two.query('SELECT $1::int AS value', [index])),
    );
    assert.deepEqual(
      sums.map((result) => result.rows[0].value),
      Array.from({ length: 20 }, (_, index) => index),
    );
    assert.equal(two.waitingCount, 0);
    assert.equal(two.idleCount, two.totalCount);
  });

  it("keeps pg-pool's own way for a call with a callback", async () => {
    const one = pool(1);
    const rows = await new Promise<unknown[]>((resolve, reject) =>
      one.query('SELECT 7 AS seven', (error: Error | undefined, result: pg.QueryResult) =>
        error ? reject(error) : resolve(result.rows),
      ),
    );
    assert.deepEqual(rows, [{ seven: 7 }]);
  });
});
