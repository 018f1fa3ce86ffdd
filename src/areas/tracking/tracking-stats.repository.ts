/** Tracking's counters for GET /admin/stats (platform.stats): clicks and conversions. */
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { trackingClicks, trackingConversions } from './tables.ts';

export class TrackingStatsRepository extends Repository {
  clicks(since: StatsSince) {
    return createdCounts(this.db, trackingClicks, trackingClicks.createdAt, since);
  }

  conversions(since: StatsSince) {
    return createdCounts(this.db, trackingConversions, trackingConversions.createdAt, since);
  }
}
