/** The catalogue's counters for GET /admin/stats (platform.stats): establishments and offers created. */
import type { DbSource } from '../../platform/db/database.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { establishments, offers } from './tables.ts';

export class CatalogueStatsRepository {
  private readonly source: DbSource;

  constructor(source: DbSource) {
    this.source = source;
  }

  establishments(since: StatsSince) {
    return createdCounts(this.source.db, establishments, establishments.createdAt, since);
  }

  offers(since: StatsSince) {
    return createdCounts(this.source.db, offers, offers.createdAt, since);
  }
}
