/**
 * The gauges and totals the platform's parts keep, read at each scrape: PostgreSQL's pool (PGlite
 * has one session and no pool), the job queues' depths as pg-boss counts them, the backlogs the areas
 * register for GET /admin/stats (after-commit retries, pushes, descriptions, federation deliveries),
 * and the lookups of every registered cache (the session cache's hits and misses among them).
 */
import type { CacheRegistry } from '../cache/cache-registry.ts';
import type { Database } from '../db/database.ts';
import { isPostgres } from '../db/postgres-database.ts';
import type { JobRunner } from '../jobs/jobs.ts';
import type { Stats } from '../stats/stats.ts';
import type { Metrics } from './metrics.ts';

/**
 * How long a scrape waits for the backlogs. A database that is down makes a connection wait up to 30 s,
 * past Prometheus' scrape timeout (10 s by default), and the whole scrape would be lost just when the
 * pool's gauges matter: the backlogs are left out of that scrape instead.
 */
export const backlogReadMs = 2_000;

/** What `read` gives within `ms`, or undefined when it fails or takes longer. */
async function readWithin<T>(read: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([read.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerPlatformMetrics(
  metrics: Metrics,
  { database, jobs, caches, stats }: { database: Database; jobs: JobRunner; caches: CacheRegistry; stats: Stats },
): void {
  if (isPostgres(database)) {
    const { pool } = database;
    metrics.gauge('tms_db_pool_connections', 'PostgreSQL connections of this instance by state', ['state'], () => [
      { labels: { state: 'inUse' }, value: pool.totalCount - pool.idleCount },
      { labels: { state: 'idle' }, value: pool.idleCount },
    ]);
    metrics.gauge('tms_db_pool_waiting', 'Queries waiting for a free PostgreSQL connection', [], () => [
      { labels: {}, value: pool.waitingCount },
    ]);
    const { replica } = database;
    if (replica !== null) {
      metrics.gauge(
        'tms_db_replica_in_use',
        '1 while the read replica serves the public reads routed to it, 0 while it is left out (lagging or unreachable)',
        [],
        () => [{ labels: {}, value: replica.inUse ? 1 : 0 }],
      );
      metrics.gauge(
        'tms_db_replica_lag_seconds',
        "The read replica's lag at the last probe; absent while the probe cannot reach it",
        [],
        () => (replica.lagSeconds === null ? [] : [{ labels: {}, value: replica.lagSeconds }]),
      );
    }
  }
  metrics.gauge(
    'tms_job_queue_jobs',
    'Jobs of each queue by state (queued, active), as pg-boss last counted them; absent until the queue runs here',
    ['job', 'state'],
    async () =>
      Object.entries((await jobs.depths()) ?? {}).flatMap(([job, depth]) => [
        { labels: { job, state: 'queued' }, value: depth.queued },
        { labels: { job, state: 'active' }, value: depth.active },
      ]),
  );
  // Read now, not from the stats snapshot (kept 45 s, and counting every table): a few counts a scrape.
  metrics.gauge(
    'tms_backlog_items',
    'Work waiting in each backlog of GET /admin/stats (shared by every instance: aggregate with max); absent while the database cannot be read',
    ['backlog'],
    async () =>
      Object.entries((await readWithin(stats.backlogs(), backlogReadMs)) ?? {}).map(([backlog, value]) => ({
        labels: { backlog },
        value,
      })),
  );
  metrics.counter(
    'tms_cache_lookups_total',
    'Lookups in each in-process cache by result (hit, miss); accounts.sessions is the session cache',
    ['cache', 'result'],
    () =>
      caches.lookups().flatMap(({ name, hits, misses }) => [
        { labels: { cache: name, result: 'hit' }, value: hits },
        { labels: { cache: name, result: 'miss' }, value: misses },
      ]),
  );
}
