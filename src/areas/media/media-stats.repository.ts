/** Media's counters for GET /admin/stats (platform.stats): posts (avatars and covers left out), and the describe queue's backlog. */
import { and, eq, sql } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { media } from './tables.ts';

export class MediaStatsRepository extends Repository {
  /** Through media_posts_created (0241). */
  posts(since: StatsSince) {
    return createdCounts(this.db, media, media.createdAt, since, eq(media.kind, 'post'));
  }

  /** Posts waiting for a description (through media_describe_queue, 0200). */
  async describePending(): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(media)
      .where(and(eq(media.kind, 'post'), eq(media.describeStatus, 'pending')));
    return row?.count ?? 0;
  }
}
