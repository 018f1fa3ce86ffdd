/** Notifications' counters for GET /admin/stats (platform.stats): notifications, and those waiting for push. */
import { isNull, sql } from 'drizzle-orm';
import type { DbSource } from '../../platform/db/database.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { notifications } from './tables.ts';

export class NotificationsStatsRepository {
  private readonly source: DbSource;

  constructor(source: DbSource) {
    this.source = source;
  }

  notifications(since: StatsSince) {
    return createdCounts(this.source.db, notifications, notifications.createdAt, since);
  }

  /** Rows the push flush has still to send (or to mark: a recipient whose push channel is off). */
  async waitingForPush(): Promise<number> {
    const [row] = await this.source.db
      .select({ count: sql<number>`count(*)::int` })
      .from(notifications)
      .where(isNull(notifications.pushedAt));
    return row?.count ?? 0;
  }
}
