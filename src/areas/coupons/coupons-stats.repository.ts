/** Coupons' counter for GET /admin/stats (platform.stats): redemptions, by when they were made. */
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { couponRedemptions } from './tables.ts';

export class CouponsStatsRepository extends Repository {
  redemptions(since: StatsSince) {
    return createdCounts(this.db, couponRedemptions, couponRedemptions.redeemedAt, since);
  }
}
