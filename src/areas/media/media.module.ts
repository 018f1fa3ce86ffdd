/**
 * Media: uploads, files and variants, lists, descriptions, and media's back office (moderation, the
 * description queue, the orphan-file sweep) under admin/. A published post publishes `media.published`.
 * Job: describe-queue. Areas that keep a counter on media register how to recount it
 * (`mediaAdmin.addCounterSource`) and move it through `media.adjustCounters`.
 */
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { describeQueueRoutes } from './admin/describe-queue.routes.ts';
import { DescribeQueueService } from './admin/describe-queue.service.ts';
import { GeoBackfillRepository } from './admin/geo-backfill.repository.ts';
import { geoBackfillRoutes } from './admin/geo-backfill.routes.ts';
import { GeoBackfillService } from './admin/geo-backfill.service.ts';
import { mediaAdminRoutes } from './admin/media-admin.routes.ts';
import { MediaAdminService } from './admin/media-admin.service.ts';
import { MediaRepository } from './media.repository.ts';
import { mediaRoutes } from './media.routes.ts';
import { MediaService } from './media.service.ts';
import { mediaFilesRoutes } from './media-files.routes.ts';
import { MediaUploadService } from './media-upload.service.ts';
import { MediaVariantService } from './media-variants.ts';

export interface MediaServices {
  media: MediaService;
  mediaUploads: MediaUploadService;
  mediaVariants: MediaVariantService;
  describeQueue: DescribeQueueService;
  mediaAdmin: MediaAdminService;
  geoBackfill: GeoBackfillService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    media: MediaServices;
  }
}

export const mediaArea = defineArea({
  name: 'media',
  needs: ['accounts', 'geography'],
  create({ transactions, events, audit, jobs, storage, clock }, { accounts, geography }) {
    const repository = new MediaRepository(transactions);
    const describeQueue = new DescribeQueueService(transactions, audit, repository, clock, events);
    jobs.register('describe-queue', {
      schedule: everyMinutes(1),
      run: () => describeQueue.releaseExpiredClaims(),
    });
    return {
      media: new MediaService(repository, accounts.users, clock, transactions, events),
      mediaUploads: new MediaUploadService(
        transactions,
        events,
        repository,
        accounts.users,
        storage,
        clock,
        geography.geography,
      ),
      mediaVariants: new MediaVariantService(storage, clock),
      describeQueue,
      mediaAdmin: new MediaAdminService(transactions, audit, repository, storage, clock, events),
      geoBackfill: new GeoBackfillService(
        transactions,
        audit,
        new GeoBackfillRepository(transactions),
        geography.geography,
        clock,
        events,
      ),
    };
  },
  async routes(app, services) {
    await mediaRoutes(app, services);
    mediaFilesRoutes(app, services);
    describeQueueRoutes(app, services);
    mediaAdminRoutes(app, services);
    geoBackfillRoutes(app, services);
  },
});
