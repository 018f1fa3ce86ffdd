/**
 * The gauges and totals the platform's parts keep, read at each scrape: PostgreSQL's pool (PGlite
 * has one session and no pool), the job queues' depths as pg-boss counts them, the backlogs the areas
 * register for GET /admin/stats (after-commit retries, pushes, descriptions, federation deliveries),
 * and the lookups of every registered cache (the session cache's hits and misses among them).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CacheRegistry } from '../cache/cache-registry.ts';
import type { Database } from '../db/database.ts';
import { isPostgres } from '../db/postgres-database.ts';
import type { JobRunner } from '../jobs/jobs.ts';
import type { Stats } from '../stats/stats.ts';
import { backlogSamples } from './backlog-gauge.ts';
import type { Metrics } from './metrics.ts';

export function registerPlatformMetrics(
  metrics: Metrics,
  {
    database,
    jobs,
    caches,
    stats,
    logger,
  }: { database: Database; jobs: JobRunner; caches: CacheRegistry; stats: Stats; logger: FastifyBaseLogger },
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
  metrics.gauge(
    'tms_backlog_items',
    'Work waiting in each backlog of GET /admin/stats (shared by every instance: aggregate with max); absent while it cannot be read',
    ['backlog'],
    backlogSamples(stats, logger),
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
