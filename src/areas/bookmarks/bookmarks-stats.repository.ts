/** Bookmarks' counter for GET /admin/stats (platform.stats). */
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { bookmarks } from './tables.ts';

export class BookmarksStatsRepository extends Repository {
  bookmarks(since: StatsSince) {
    return createdCounts(this.db, bookmarks, bookmarks.createdAt, since);
  }
}
