/** Follows' counter for GET /admin/stats (platform.stats). */
import type { DbSource } from '../../platform/db/database.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { follows } from './tables.ts';

export class FollowsStatsRepository {
  private readonly source: DbSource;

  constructor(source: DbSource) {
    this.source = source;
  }

  follows(since: StatsSince) {
    return createdCounts(this.source.db, follows, follows.createdAt, since);
  }
}
