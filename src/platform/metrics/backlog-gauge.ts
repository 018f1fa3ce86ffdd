/**
 * `tms_backlog_items{backlog}`: each backlog of GET /admin/stats (stats.ts `registerBacklog`), counted
 * at the scrape, not taken from the stats snapshot (kept 45 s, and it counts every table).
 *
 * The backlogs are read one after the other, as the snapshot reads them (never a burst of connections).
 * One that fails is left out of that scrape and logged (`metrics.backlogUnread`); the others are
 * reported. A database that does not answer makes a connection wait up to 30 s, past Prometheus'
 * scrape timeout (10 s by default), and the whole scrape would be lost just when the pool's gauges
 * matter: a scrape waits for the reading at most `backlogReadMs`, and then answers without the
 * backlogs. A reading still running is joined by the next scrape, never started again, so a database
 * that hangs is asked once, not at every scrape.
 */
import type { FastifyBaseLogger } from 'fastify';
import { within } from '../concurrency/within.ts';
import type { Stats } from '../stats/stats.ts';
import type { Sample } from './metrics.ts';

export const backlogReadMs = 2_000;

export function backlogSamples(stats: Stats, logger: FastifyBaseLogger): () => Promise<Sample<'backlog'>[]> {
  let reading: Promise<Record<string, number>> | null = null;
  const read = () =>
    (reading ??= stats
      .backlogs((backlog, error) =>
        logger.warn(
          { event: 'metrics.backlogUnread', backlog, err: error },
          'a backlog could not be read for /metrics',
        ),
      )
      .finally(() => {
        reading = null;
      }));
  return async () =>
    Object.entries((await within(read(), backlogReadMs, null)) ?? {}).map(([backlog, value]) => ({
      labels: { backlog },
      value,
    }));
}
