/**
 * What follows a published upload, in the upload's transaction: experience points and progress of
 * the photographer badge through services.gamification. The one call site for these rewards.
 */
import type { Db } from '../../platform/db/database.ts';
import type { GamificationService } from '../gamification/gamification.service.ts';
import type { MediaRepository } from './media.repository.ts';
import type { MediaRow } from './tables.ts';

export const experienceForPublishedMedia = 10;
export const photographerBadge = 'photographer';

export interface MediaPublishedEffects {
  onMediaPublished(row: MediaRow, db: Db): Promise<void>;
}

export function gamificationEffects(
  gamification: Pick<GamificationService, 'awardExperience' | 'recordBadgeProgress'>,
  repository: MediaRepository,
): MediaPublishedEffects {
  return {
    async onMediaPublished(row, db) {
      await gamification.awardExperience(row.ownerId, experienceForPublishedMedia, 'media.published', db);
      const published = await repository.countPublishedPosts(row.ownerId, db);
      await gamification.recordBadgeProgress(row.ownerId, photographerBadge, published, db);
    },
  };
}
