/** The catalogue's counters for GET /admin/stats (platform.stats): establishments and offers created. */
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { establishments, offers } from './tables.ts';

export class CatalogueStatsRepository extends Repository {
  establishments(since: StatsSince) {
    return createdCounts(this.db, establishments, establishments.createdAt, since);
  }

  offers(since: StatsSince) {
    return createdCounts(this.db, offers, offers.createdAt, since);
  }
}
