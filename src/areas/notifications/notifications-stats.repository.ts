/** Notifications' counters for GET /admin/stats (platform.stats): notifications, and those waiting for push. */
import { isNull, sql } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { notifications } from './tables.ts';

export class NotificationsStatsRepository extends Repository {
  notifications(since: StatsSince) {
    return createdCounts(this.db, notifications, notifications.createdAt, since);
  }

  /** Rows the push flush has still to send (or to mark: a recipient whose push channel is off). */
  async waitingForPush(): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(notifications)
      .where(isNull(notifications.pushedAt));
    return row?.count ?? 0;
  }
}
