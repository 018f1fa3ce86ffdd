/**
 * A pool's `query` as a checkout: the client taken, the statement run on it, the client given back.
 * pg-pool's own `query` does the same with more steps a statement: an `error` listener put on the
 * client and taken off again, and a callback handed to pg, which sets it on the copy pg makes of the
 * statement's config (that copy, made by `Object.defineProperties`, then takes V8's slow path). Every
 * read outside a transaction (Drizzle's, the prepared statements', ping's) runs this way: measured on
 * ping, 2.6 µs of pg's copy and about 9 µs of CPU a request in all (docs/benchmarks.md, Session 49).
 *
 * The same answers and errors as pg-pool's: a statement that fails gives its client back with its
 * error, so the pool discards that client, as pg-pool does; a client that breaks mid-statement fails
 * the statement (pg rejects it), and the pool's `connect` marks what cannot connect (postgres-database.ts).
 * A call in the callback style, which no code of ours makes, keeps pg-pool's own way.
 */
import type pg from 'pg';

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

export function queryThroughCheckout(pool: pg.Pool): void {
  const own = pool.query.bind(pool) as Query;
  const query: Query = (config, values, callback) => {
    if (typeof values === 'function' || typeof callback === 'function') return own(config, values, callback);
    return checkedOut(pool, config, values);
  };
  pool.query = query as typeof pool.query;
}

async function checkedOut(pool: pg.Pool, config: unknown, values: unknown): Promise<unknown> {
  const client = await pool.connect();
  let result: unknown;
  try {
    result = await (client.query as Query)(config, values);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  client.release();
  return result;
}
