/** Accounts' counters for GET /admin/stats (platform.stats): users, and live sessions. */
import { gt } from 'drizzle-orm';
import type { DbSource } from '../../platform/db/database.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { sessions, users } from './tables.ts';

export class AccountsStatsRepository {
  private readonly source: DbSource;

  constructor(source: DbSource) {
    this.source = source;
  }

  users(since: StatsSince) {
    return createdCounts(this.source.db, users, users.createdAt, since);
  }

  /** Sessions not expired (ended ones are deleted), by when they were opened. */
  sessions(since: StatsSince) {
    return createdCounts(this.source.db, sessions, sessions.createdAt, since, gt(sessions.expiresAt, since.now));
  }
}
