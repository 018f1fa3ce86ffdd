/**
 * The discovery seed's derived tables (the map's cells and clusters, the hashtag counts) built by
 * their jobs' own methods once the seed is written, before the server starts, then those tables
 * vacuumed and analyzed as autovacuum would leave them (this machine's PostgreSQL has it off). Until
 * session 44 the benchmark flushed the jobs through the running server after the seed's VACUUM ANALYZE: their
 * tables were measured with no statistics (analyzed empty) and no page marked all-visible, so every
 * index-only read of them went to the table too (hashtag autocomplete: 500 heap fetches a request, on
 * a table ten times larger at a million), which production's autovacuum would have spared it.
 */
import { getTableName } from 'drizzle-orm';
import { MapCellsRepairRepository } from '../../src/areas/discovery/map-cells-repair.repository.ts';
import { mapCells, mapCountedMedia } from '../../src/areas/discovery/tables.ts';
import { CountedPostsRepository } from '../../src/areas/hashtags/counted-posts.repository.ts';
import { HashtagsRepository } from '../../src/areas/hashtags/hashtags.repository.ts';
import { HashtagsService } from '../../src/areas/hashtags/hashtags.service.ts';
import { hashtagCountedMedia, hashtagDailyUses, hashtagPairs, hashtagUses } from '../../src/areas/hashtags/tables.ts';
import { systemClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { jobTransactions, vacuumAnalyze } from './job-transactions.ts';

/** Runs `build`, printing its report and time as the job's name. */
async function timed(job: string, build: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  const report = await build();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(report === undefined ? `${job} in ${seconds} s` : `${job}: ${JSON.stringify(report)} in ${seconds} s`);
}

export async function buildDerivedTables(database: Database): Promise<void> {
  const transactions = jobTransactions(database);
  const cells = new MapCellsRepairRepository(transactions);
  await timed('map-clusters', () => transactions.run(() => cells.repair()));
  const hashtags = new HashtagsService({
    transactions,
    repository: new HashtagsRepository(transactions),
    counts: new CountedPostsRepository(transactions),
    clock: systemClock,
  });
  await timed('hashtags', () => hashtags.rebuild());
  const built = [mapCells, mapCountedMedia, hashtagDailyUses, hashtagUses, hashtagPairs, hashtagCountedMedia];
  await timed('VACUUM ANALYZE', () => vacuumAnalyze(database, built.map(getTableName)));
  // What the daily run costs when the writes kept the map right: the check alone, locking nothing.
  await timed('map-clusters, nothing to repair', () => transactions.run(() => cells.repair()));
}
