/** Reports' counter for GET /admin/stats (platform.stats): reports filed, and the open ones now. */
import { eq } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { reports } from './tables.ts';

export class ReportsStatsRepository extends Repository {
  reports(since: StatsSince) {
    return createdCounts(this.db, reports, reports.createdAt, since, undefined, { open: eq(reports.status, 'open') });
  }
}
