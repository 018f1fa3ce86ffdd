/**
 * A `Transactions` over a bench's scratch database for running a job's own method before the server
 * starts (search-documents.ts, derived-tables.ts): an after-commit failure is thrown, not logged, so
 * a seed step that went wrong stops the benchmark.
 */
import type { Database } from '../../src/platform/db/database.ts';
import { Transactions } from '../../src/platform/db/transactions.ts';

export function jobTransactions(database: Database): Transactions {
  return new Transactions(database.db, (error) => {
    throw error;
  });
}

/** `VACUUM ANALYZE` of the tables a seed step wrote, as autovacuum would leave them. */
export function vacuumAnalyze(database: Database, tables: readonly string[]): Promise<void> {
  return database.withMigrationLock((conn) => conn.exec(`VACUUM ANALYZE ${tables.join(', ')}`));
}
