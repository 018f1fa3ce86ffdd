/** The media area's services, built once in createServices; the describe-queue job registered here. */
import type { AppDeps } from '../../deps.ts';
import { everyMinutes, type JobRunner } from '../../platform/jobs/jobs.ts';
import { DescribeQueueService } from '../admin/describe-queue.service.ts';
import { MediaAdminService } from '../admin/media-admin.service.ts';
import type { GamificationService } from '../gamification/gamification.service.ts';
import type { MediaRepository } from './media.repository.ts';
import { gamificationEffects } from './media-published.ts';
import { MediaUploadService } from './media-upload.service.ts';
import { MediaVariantService } from './media-variants.ts';

/** How often the server returns expired description leases to the queue. */

export function createMediaServices(
  deps: AppDeps,
  repository: MediaRepository,
  jobs: JobRunner,
  gamification: GamificationService,
) {
  const mediaUploads = new MediaUploadService(
    repository,
    deps.storage,
    deps.clock,
    gamificationEffects(gamification, repository),
  );
  const mediaVariants = new MediaVariantService(deps.storage, deps.clock);
  const describeQueue = new DescribeQueueService(repository, deps.clock);
  const mediaAdmin = new MediaAdminService(repository, mediaUploads, deps.storage, deps.clock);
  jobs.register('describe-queue', {
    schedule: everyMinutes(1),
    run: () => describeQueue.releaseExpiredClaims(),
  });
  return { mediaUploads, mediaVariants, describeQueue, mediaAdmin };
}
