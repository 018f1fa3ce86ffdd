/**
 * The search index of a seeded database brought up to date by the search-index job's own method, run
 * once before the server starts: a seed inserts users and media with SQL, past the events that index
 * them as the service's writes do, and the job would otherwise leave them out of search until its
 * run (once a day since session 42; every 15 minutes before, when it indexed every seeded row during
 * the scenarios: 28 s of PostgreSQL at 100,000 rows on a busy machine, minutes at a million, counted
 * against whichever scenario it fell in). What is already indexed (discovery's users,
 * seeded with their documents) is left as it is.
 *
 * The repair runs on the seed's statistics (no media document yet; this machine's PostgreSQL has
 * autovacuum off), as the service's job does after a bulk import: since 2026-11-29 (session 40) its
 * batches probe the index's key whatever the statistics say (index.repository.ts staleOrMissingIds).
 */
import pino from 'pino';
import { IndexRepository } from '../../src/areas/search/index.repository.ts';
import { SearchIndexService } from '../../src/areas/search/search-index.service.ts';
import { systemClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { jobTransactions, vacuumAnalyze } from './job-transactions.ts';

export async function indexForSearch(database: Database): Promise<void> {
  const transactions = jobTransactions(database);
  const index = new SearchIndexService({
    transactions,
    repository: new IndexRepository(transactions),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  });
  await index.repair();
  // As autovacuum would leave it, like the seed's own tables (the seeds end with VACUUM ANALYZE).
  await vacuumAnalyze(database, ['search_documents']);
}
