/** Reactions' counters for GET /admin/stats (platform.stats): likes and dislikes together. */
import { inArray } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { createdCounts } from '../../platform/stats/created-counts.ts';
import type { StatsSince } from '../../platform/stats/stats.ts';
import { mediaReactions, reactionTypes } from './tables.ts';

export class ReactionsStatsRepository extends Repository {
  /** The type condition lets the windows range over media_reactions_recent (type, created_at). */
  reactions(since: StatsSince) {
    const types = [...reactionTypes];
    return createdCounts(this.db, mediaReactions, mediaReactions.createdAt, since, inArray(mediaReactions.type, types));
  }
}
