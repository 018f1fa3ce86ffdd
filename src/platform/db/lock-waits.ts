/**
 * A bound on how long the transaction in progress waits for a lock, for after-commit updates of
 * derived tables (the hashtag counts' resyncs, the map's representatives after a like). They run in
 * the request of the write that caused them, each holding a pooled connection while it waits, and a
 * daily repair holds its tables' locks for seconds at a million media: unbounded, a few such waits
 * would take every connection of the pool. Past the bound the update fails as an after-commit one may
 * (logged), and the job after-commit-retries runs it again (platform/events/after-commit-retries.ts).
 */
import { sql } from 'drizzle-orm';
import type { Db } from './database.ts';

const afterCommitLockTimeoutMs = 2_000;

/** The transaction's first statement: `SET LOCAL lock_timeout`. */
export async function boundLockWaits(db: Db): Promise<void> {
  await db.execute(sql.raw(`SET LOCAL lock_timeout = '${afterCommitLockTimeoutMs}ms'`));
}
