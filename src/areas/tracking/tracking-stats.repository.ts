/** Tracking's counters for GET /admin/stats (platform.stats): clicks and conversions. */
import type { DbSource } from '../../platform/db/database.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { trackingClicks, trackingConversions } from './tables.ts';

export class TrackingStatsRepository {
  private readonly source: DbSource;

  constructor(source: DbSource) {
    this.source = source;
  }

  clicks(since: StatsSince) {
    return createdCounts(this.source.db, trackingClicks, trackingClicks.createdAt, since);
  }

  conversions(since: StatsSince) {
    return createdCounts(this.source.db, trackingConversions, trackingConversions.createdAt, since);
  }
}
