/** Accounts' counters for GET /admin/stats (platform.stats): users, and live sessions. */
import { gt, isNull } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { sessions, users } from './tables.ts';

export class AccountsStatsRepository extends Repository {
  users(since: StatsSince) {
    // Members: the shadows of remote actors (federation) are not.
    return createdCounts(this.db, users, users.createdAt, since, isNull(users.remoteHandle));
  }

  /** Sessions not expired (ended ones are deleted), by when they were opened. */
  sessions(since: StatsSince) {
    return createdCounts(this.db, sessions, sessions.createdAt, since, gt(sessions.expiresAt, since.now));
  }
}
