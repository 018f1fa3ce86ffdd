/** What the liveness route knows of the database: its engine, and whether it answers. Areas get this, never the Database. */
import type { Database } from './database.ts';
import { isPostgres } from './postgres-database.ts';

export interface DatabaseHealth {
  readonly engine: Database['engine'];
  /** Resolves when the database answers a statement; rejects as the statement would. */
  check(): Promise<void>;
}

/**
 * On PostgreSQL the pool runs `SELECT 1` itself, as a named statement each connection prepares once:
 * ping answers on every probe and load balancer's check, and the query builder's work (building the
 * text, mapping the row) was most of what ping cost beyond the framework. The pool's connection
 * failures are marked as the database's (postgres-database.ts), so an unreachable database still
 * answers 503 databaseUnavailable.
 */
const selectOne = { name: 'health.select_one', text: 'SELECT 1' };

export const databaseHealth = (database: Database): DatabaseHealth => {
  if (isPostgres(database)) {
    const { pool } = database;
    return {
      engine: database.engine,
      async check() {
        await pool.query(selectOne);
      },
    };
  }
  return {
    engine: database.engine,
    async check() {
      await database.db.execute('SELECT 1');
    },
  };
};
