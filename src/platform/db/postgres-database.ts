import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type Database, type Db, LockKey, processLocks, type RawConnection } from './database.ts';
import { markConnectFailure } from './errors.ts';
import { pgTypeParsers } from './pg-type-parsers.ts';
import { releaseConnectionsOfTransactions } from './pool-transaction.ts';
import { Replica, type ReplicaOptions } from './replica.ts';

function rawConnection(client: pg.ClientBase): RawConnection {
  const conn: RawConnection = {
    exec: async (sqlText) => {
      await client.query(sqlText);
    },
    query: async <T>(sqlText: string, params: unknown[] = []) => (await client.query(sqlText, params)).rows as T[],
    transaction: async (fn) => {
      await client.query('BEGIN');
      try {
        const value = await fn(conn);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
  };
  return conn;
}

/**
 * How long a request waits for a connection (a new one, or a pooled one to be free) before it is
 * answered 503 databaseUnavailable: long enough for a burst to wait its turn in the pool, short of the
 * request timeout, so a database that cannot be reached (a network partition: its connections hang
 * rather than fail) never holds a request for good. A database that restarts refuses connections at
 * once, and those requests are answered 503 at once.
 */
export const connectTimeoutMs = 30_000;

const ignore = () => {};

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  release: (release?: unknown) => void,
) => void;

export type PostgresDatabase = Database & {
  pool: pg.Pool;
  /** The read replica (DATABASE_REPLICA_URL), its lag probe started; null without one. */
  replica: Replica | null;
};

/** A read replica to open beside the primary: its URL and how it is used (replica.ts). */
export type ReplicaSettings = { url: string } & Omit<ReplicaOptions, 'poolSize'>;

export const isPostgres = (database: Database): database is PostgresDatabase =>
  database.engine === 'postgres' && 'pool' in database;

/**
 * A PostgreSQL server through a `pg` pool. Migrations take their advisory lock on a client of their
 * own (to `migrationUrl`, the direct URL when a pooler such as PgBouncer stands in front), never on a
 * pooled connection: a transaction-mode pooler cannot keep a session-level lock.
 */
export function openPostgres(
  url: string,
  poolSize = 10,
  migrationUrl = url,
  replicaSettings: ReplicaSettings | null = null,
): PostgresDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: pgTypeParsers,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // A connection the server ends (a restart, a failover, pg_terminate_backend) emits 'error'. The pool
  // drops an idle one by itself (its 'error' event, below); but while a client is checked out (between
  // two statements of a transaction) the pool takes its own listener off, and an 'error' event nobody
  // listens to ends the process. So every client listens for its whole life: the statement it runs
  // next fails (its request answers 503 databaseUnavailable) and the pool discards it on release.
  pool.on('connect', (client) => client.on('error', ignore));
  pool.on('error', ignore);
  // A connection that cannot be opened fails with a bare socket error (ECONNREFUSED): marked here, so
  // the error handler knows it is the database's (isDatabaseUnavailable), not another service's.
  // (pool.query connects with a callback, transactions with a promise: both are kept.)
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: ConnectCallback) => {
    if (callback) {
      return connect((error, client, release) => {
        if (error) markConnectFailure(error);
        callback(error, client, release);
      });
    }
    return connect()?.catch((error: unknown) => {
      markConnectFailure(error);
      throw error;
    });
  }) as typeof pool.connect;
  const db = drizzle({ client: pool }) as unknown as Db;
  releaseConnectionsOfTransactions(db, pool);
  const replica =
    replicaSettings === null ? null : new Replica(replicaSettings.url, url, pool, { ...replicaSettings, poolSize });
  void replica?.start();

  async function withMigrationClient<T>(fn: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: migrationUrl });
    client.on('error', ignore);
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [LockKey.migrations]);
      return await fn(client);
    } finally {
      await client.end(); // ending the session releases the lock
    }
  }

  return {
    engine: 'postgres',
    db,
    pool,
    replica,
    withMigrationLock: (fn) =>
      processLocks.run('migrations', () => withMigrationClient((client) => fn(rawConnection(client)))),
    jobsDatabase: async () => ({ executeSql: (text: string, values?: unknown[]) => pool.query(text, values) }),
    close: async () => {
      await replica?.close();
      await pool.end();
    },
  };
}
