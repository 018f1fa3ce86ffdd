/** Bookmarks' counter for GET /admin/stats (platform.stats). */
import type { DbSource } from '../../platform/db/database.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { bookmarks } from './tables.ts';

export class BookmarksStatsRepository {
  private readonly source: DbSource;

  constructor(source: DbSource) {
    this.source = source;
  }

  bookmarks(since: StatsSince) {
    return createdCounts(this.source.db, bookmarks, bookmarks.createdAt, since);
  }
}
