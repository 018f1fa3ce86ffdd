/** Follows' counter for GET /admin/stats (platform.stats). */
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { follows } from './tables.ts';

export class FollowsStatsRepository extends Repository {
  follows(since: StatsSince) {
    return createdCounts(this.db, follows, follows.createdAt, since);
  }
}
