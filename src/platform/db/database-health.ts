/** What the liveness route knows of the database: its engine, and whether it answers. Areas get this, never the Database. */
import type { Database } from './database.ts';

export interface DatabaseHealth {
  readonly engine: Database['engine'];
  /** Resolves when the database answers a statement; rejects as the statement would. */
  check(): Promise<void>;
}

export const databaseHealth = (database: Database): DatabaseHealth => ({
  engine: database.engine,
  async check() {
    await database.db.execute('SELECT 1');
  },
});
