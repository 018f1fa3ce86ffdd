/**
 * The search index of a seeded database brought up to date by the search-index job's own method, run
 * once before the server starts: a seed inserts users and media with SQL, past the events that index
 * them as the service's writes do, and the job (every 15 minutes) would otherwise index every seeded
 * row during the scenarios (28 s of PostgreSQL at 100,000 rows on a busy machine, minutes at a
 * million), counted against whichever scenario it fell in. What is already indexed (discovery's users,
 * seeded with their documents) is left as it is.
 *
 * The table's statistics are brought up to date every few seconds meanwhile, as autovacuum does where
 * it runs: with those of the seed (no media documents yet), PostgreSQL planned each batch of the repair
 * as a merge join sorting every document, and at a million media the repair had not ended after 45
 * minutes on a PostgreSQL with autovacuum off (this machine's CI configuration turns it off).
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { IndexRepository } from '../../src/areas/search/index.repository.ts';
import { SearchIndexService } from '../../src/areas/search/search-index.service.ts';
import { systemClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { Transactions } from '../../src/platform/db/transactions.ts';

export async function indexForSearch(database: Database): Promise<void> {
  const transactions = new Transactions(database.db, (error) => {
    throw error;
  });
  const index = new SearchIndexService({
    transactions,
    repository: new IndexRepository(transactions),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  });
  const analyzing = setInterval(() => {
    database.db.execute(sql`ANALYZE search_documents`).catch(() => undefined); // the next one will do
  }, 5_000);
  try {
    await index.repair();
  } finally {
    clearInterval(analyzing);
  }
  // As autovacuum would leave it, like the seed's own tables (the seeds end with VACUUM ANALYZE).
  await database.withMigrationLock((conn) => conn.exec('VACUUM ANALYZE search_documents'));
}
