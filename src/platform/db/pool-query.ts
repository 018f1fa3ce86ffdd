/**
 * A pool's `query` as a checkout: the client taken, the statement run on it, the client given back.
 * pg-pool's own `query` does the same with more steps a statement: an `error` listener put on the
 * client and taken off again, and a callback handed to pg, which sets it on the copy pg makes of the
 * statement's config (that copy, made by `Object.defineProperties`, then takes V8's slow path). Every
 * statement outside a transaction (Drizzle's, the prepared statements') runs this way (docs/benchmarks.md,
 * Session 49).
 *
 * The same answers and errors as pg-pool's: a statement that fails gives its client back with its
 * error, so the pool discards that client, as pg-pool does; a client that breaks mid-statement fails
 * the statement (pg rejects it), and the pool's `connect` marks what cannot connect (postgres-database.ts).
 * pg-pool's `query` listens for the client's `error` while it runs; here the pool's clients must listen
 * for their whole life (postgres-database.ts and replica.ts do, on `connect`), or a connection lost
 * mid-statement would end the process. A call in the callback style, or with a query object of its own
 * (`submit`: a cursor, a stream) or a config carrying its own `callback`, which no code of ours makes,
 * keeps pg-pool's own way.
 */
import type pg from 'pg';

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

export function queryThroughCheckout(pool: pg.Pool): void {
  const own = pool.query.bind(pool) as Query;
  const query: Query = (config, values, callback) => {
    if (typeof values === 'function' || typeof callback === 'function' || runsItsOwnWay(config))
      return own(config, values, callback);
    return checkedOut(pool, config, values);
  };
  pool.query = query as typeof pool.query;
}

/** A query object (`submit`) or a config with its own `callback`: pg answers it without a promise. */
const runsItsOwnWay = (config: unknown) =>
  typeof config === 'object' &&
  config !== null &&
  (typeof (config as { submit?: unknown }).submit === 'function' ||
    typeof (config as { callback?: unknown }).callback === 'function');

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
