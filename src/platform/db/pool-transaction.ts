/**
 * Transactions on a `pg` pool that always give their connection back. Drizzle's own transaction on a
 * pool (drizzle-orm 0.45) checks a client out and runs BEGIN before its try/finally, so a BEGIN that
 * fails never releases the client: one connection of the pool is lost for good each time. BEGIN fails
 * that way when the server has just ended an idle connection (a restart, pg_terminate_backend) and the
 * pool hands it out before it has read the notice; after a few of those the pool is empty and every
 * request waits for a connection until it is answered 503. Here the pool checkout is ours, and Drizzle
 * runs the transaction on the checked-out client (which it does not release).
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from './database.ts';
import { isDatabaseUnavailable } from './errors.ts';

type Transaction = Db['transaction'];

/** Replaces `db.transaction` (on a Drizzle handle over `pool`) by one that releases its connection on any outcome. */
export function releaseConnectionsOfTransactions(db: Db, pool: pg.Pool): void {
  // One Drizzle handle per connection, made at its first transaction: the pool reuses its connections.
  const handles = new WeakMap<pg.PoolClient, Db>();
  const handleOf = (client: pg.PoolClient): Db => {
    let handle = handles.get(client);
    if (handle === undefined) {
      handle = drizzle({ client }) as unknown as Db;
      handles.set(client, handle);
    }
    return handle;
  };
  const transaction: Transaction = async (fn, config) => {
    const client = await pool.connect();
    try {
      const result = await handleOf(client).transaction(fn, config);
      client.release();
      return result;
    } catch (error) {
      // A connection that broke is closed rather than pooled (the pool also drops one it knows has ended).
      client.release(isDatabaseUnavailable(error) ? (error as Error) : undefined);
      throw error;
    }
  };
  db.transaction = transaction;
}
