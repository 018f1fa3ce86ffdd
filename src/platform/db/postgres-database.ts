import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type Database, type Db, LockKey, processLocks, type RawConnection } from './database.ts';

function rawConnection(client: pg.PoolClient): RawConnection {
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

export function openPostgres(url: string, poolSize = 10): Database & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzle({ client: pool }) as unknown as Db;

  async function withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  }

  return {
    engine: 'postgres',
    db,
    pool,
    withLock: (name, fn) =>
      processLocks.run(name, () =>
        withClient(async (client) => {
          await client.query('SELECT pg_advisory_lock($1)', [LockKey[name]]);
          try {
            return await fn(rawConnection(client));
          } finally {
            await client.query('SELECT pg_advisory_unlock($1)', [LockKey[name]]);
          }
        }),
      ),
    tryWithLock: (name, fn) =>
      processLocks
        .tryRun(name, () =>
          withClient(async (client) => {
            const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS got', [LockKey[name]]);
            if (!rows[0]?.got) return { ran: false as const };
            try {
              return { ran: true as const, value: await fn() };
            } finally {
              await client.query('SELECT pg_advisory_unlock($1)', [LockKey[name]]);
            }
          }),
        )
        .then((outcome) => (outcome.ran ? outcome.value : outcome)),
    close: () => pool.end(),
  };
}
