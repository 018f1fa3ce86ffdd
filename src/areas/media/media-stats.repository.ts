/** Media's counters for GET /admin/stats (platform.stats): posts (avatars and covers left out). */
import { eq } from 'drizzle-orm';
import type { DbSource } from '../../platform/db/database.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { media } from './tables.ts';

export class MediaStatsRepository {
  private readonly source: DbSource;

  constructor(source: DbSource) {
    this.source = source;
  }

  /** Through media_posts_created (0241). */
  posts(since: StatsSince) {
    return createdCounts(this.source.db, media, media.createdAt, since, eq(media.kind, 'post'));
  }
}
