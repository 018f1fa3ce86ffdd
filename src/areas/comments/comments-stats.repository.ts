/** Comments' counter for GET /admin/stats (platform.stats): comments written (deleted ones included). */
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { comments } from './tables.ts';

export class CommentsStatsRepository extends Repository {
  /** Through comments_created (0800). */
  comments(since: StatsSince) {
    return createdCounts(this.db, comments, comments.createdAt, since);
  }
}
