/**
 * Media: uploads, files and variants, lists, descriptions, and media's back office (moderation, the
 * description queue, the orphan-file sweep) under admin/. A published post publishes `media.published`.
 * Jobs: describe-queue, media-variants (the common variants of new uploads, media-variants.job.ts).
 * Areas that keep a counter on media register how to recount it
 * (`mediaAdmin.addCounterSource`) and move it through `media.adjustCounters`.
 */
import { byId, mapped } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { lazyServerSecret } from '../../platform/secrets/server-secret.ts';
import '../accounts/events.ts';
import multipart from '@fastify/multipart';
import type { App } from '../../platform/http/types.ts';
import { DescribeQueueService } from './admin/describe-queue.service.ts';
import { GeoBackfillRepository } from './admin/geo-backfill.repository.ts';
import { GeoBackfillService } from './admin/geo-backfill.service.ts';
import { MediaAdminService } from './admin/media-admin.service.ts';
import { describeQueueAdminRoutes } from './describe-queue.admin-routes.ts';
import { geoBackfillAdminRoutes } from './geo-backfill.admin-routes.ts';
import { mediaAdminRoutes } from './media.admin-routes.ts';
import { MediaRepository } from './media.repository.ts';
import { mediaRoutes } from './media.routes.ts';
import { MediaService } from './media.service.ts';
import { MediaDeletion } from './media-deletion.ts';
import { mediaFilesRoutes } from './media-files.routes.ts';
import { MediaStatsRepository } from './media-stats.repository.ts';
import { MediaUploadService } from './media-upload.service.ts';
import { mediaUploadRoutes } from './media-uploads.routes.ts';
import { MediaVariantsJob } from './media-variants.job.ts';
import { MediaVariantsRepository } from './media-variants.repository.ts';
import { MediaVariantService } from './media-variants.ts';
import { postsRoutes } from './posts.routes.ts';
import { PostsService } from './posts.service.ts';
import { defaultMaxQueuedRenders, RenderQueue } from './render-queue.ts';
import { registerRenderQueueMetrics } from './render-queue-metrics.ts';
import { RenderRateLimit } from './render-rate-limit.ts';
import { multipartOptions } from './upload-form.ts';

export const mediaArea = defineArea({
  name: 'media',
  needs: ['accounts', 'geography', 'filters'],
  create(
    {
      transactions,
      events,
      audit,
      jobs,
      storage,
      clock,
      caches,
      stats,
      config,
      rateLimitStore,
      logger,
      exports,
      metrics,
    },
    { accounts, geography, filters },
  ) {
    const repository = new MediaRepository(transactions);
    // The original of each media goes into the export byte for byte, as media/<hex>.<ext>.
    const mediaOfUser = (userId: string) => byId((after, limit) => repository.exportRows(userId, after, limit));
    const exportedPath = (key: string) => `media/${key.slice(key.lastIndexOf('/') + 1)}`;
    exports.register({
      name: 'media',
      description:
        'Your photos (posts, avatar, cover): description, hashtags, position, place, dates and counters; `file` is the original under media/.',
      rows: (userId) =>
        mapped(mediaOfUser(userId), ({ originalKey, earthPosition: _derived, ...row }) => ({
          ...row,
          file: exportedPath(originalKey),
        })),
      files: (userId) =>
        mapped(mediaOfUser(userId), (row) => ({
          path: exportedPath(row.originalKey),
          async open() {
            const stored = await storage.getStream(row.originalKey);
            if (stored === null) throw new Error(`the original of media ${row.id} is missing from storage`);
            return stored.stream;
          },
        })),
    });
    // The posts a user made (docs/api.md, Posts): the photos' own rows are in the media section.
    exports.register({
      name: 'posts',
      description:
        'Your posts of several photos: the post id (its lead photo), caption, hashtags and the photos in order with their texts.',
      async *rows(userId) {
        for await (const lead of byId((after, limit) => repository.exportPosts(userId, after, limit))) {
          const photos = await repository.photosOfPosts([lead.id]);
          yield {
            id: lead.id,
            caption: lead.description,
            hashtags: lead.hashtags,
            createdAt: lead.createdAt,
            photos: photos.map((photo) => ({
              mediaId: photo.id,
              order: photo.postPosition,
              description: photo.altText,
              file: exportedPath(photo.originalKey),
            })),
          };
        }
      },
    });
    const describeQueue = new DescribeQueueService({ transactions, audit, repository, clock, events });
    jobs.register('describe-queue', {
      schedule: everyMinutes(1),
      run: () => describeQueue.releaseExpiredClaims(),
    });
    const mediaAdmin = new MediaAdminService({
      transactions,
      audit,
      repository,
      storage,
      clock,
      events,
      users: accounts.users,
    });
    // A banned owner's media leave public lists and answer 404 to others until the ban ends (media-flags.ts).
    events.subscribe('user.banned', 'inTransaction', 'media.hideBannedOwner', async ({ userId }) => {
      await repository.setOwnerBanned(userId, true);
    });
    events.subscribe('user.unbanned', 'inTransaction', 'media.showUnbannedOwner', async ({ userId }) => {
      await repository.setOwnerBanned(userId, false);
    });
    // An erased account's media go with it: rows now, files after the commit.
    events.subscribe('user.anonymized', 'inTransaction', 'media.deleteErasedOwner', async ({ userId }) => {
      await mediaAdmin.deleteAllOf(userId);
    });
    // A deleted account's media (posts, avatar, cover) go the same way: rows now (reactions, bookmarks,
    // comments on them follow by cascade), files after the commit (orphan cleanup if that fails).
    events.subscribe('user.erasing', 'inTransaction', 'media.erase', async ({ userId }) => {
      await mediaAdmin.deleteAllOf(userId);
    });
    const mediaService = new MediaService({
      repository,
      users: accounts.users,
      clock,
      transactions,
      events,
      filters: filters.filters,
    });
    const mediaVariants = new MediaVariantService({
      storage,
      clock,
      renders: {
        queue: new RenderQueue({ concurrency: config.mediaRenderConcurrency, maxQueued: defaultMaxQueuedRenders }),
        waitMs: config.mediaRenderWaitMs,
        rateLimit: new RenderRateLimit({
          store: rateLimitStore,
          clock,
          enabled: config.rateLimits,
          maxPerMinute: config.mediaRenderRateLimit,
        }),
      },
      etagKey: lazyServerSecret(config.dataDir, 'media-etag', config.mediaEtagSecret),
    });
    const variantsJob = new MediaVariantsJob(new MediaVariantsRepository(transactions), mediaVariants, clock, logger);
    jobs.register('media-variants', { schedule: everyMinutes(1), run: () => variantsJob.run() });
    // A new post gets its common variants within seconds (the job's poll) rather than at the next minute.
    events.subscribe('media.published', 'afterCommit', 'media.renderVariants', () => jobs.enqueue('media-variants'));
    caches.register('media.servable', mediaService.cache);
    caches.register('media.variants', mediaVariants.cache);
    registerRenderQueueMetrics(metrics, mediaVariants);
    const mediaStats = new MediaStatsRepository(transactions);
    stats.register('media', (since) => mediaStats.posts(since));
    stats.registerBacklog('media.describePending', () => mediaStats.describePending());
    return {
      media: mediaService,
      posts: new PostsService({
        repository,
        media: mediaService,
        deletion: new MediaDeletion({ transactions, events, repository, users: accounts.users, storage }),
        users: accounts.users,
        clock,
        transactions,
        events,
      }),
      mediaUploads: new MediaUploadService({
        transactions,
        events,
        repository,
        users: accounts.users,
        storage,
        clock,
        geography: geography.geography,
        quotaBytes: config.mediaQuotaBytes,
      }),
      mediaVariants,
      describeQueue,
      mediaAdmin,
      geoBackfill: new GeoBackfillService({
        transactions,
        audit,
        repository: new GeoBackfillRepository(transactions),
        geography: geography.geography,
        clock,
        events,
      }),
    };
  },
  async routes(app, services) {
    // Multipart only where uploads are taken, with its own limits (see upload-form.ts).
    await app.register(async (uploads: App) => {
      await uploads.register(multipart, multipartOptions);
      registerRoutes(uploads, 'media', mediaUploadRoutes(services));
    });
    registerRoutes(app, 'media', [...mediaRoutes(services), ...postsRoutes(services), ...mediaFilesRoutes(services)]);
    registerRoutes(app, 'admin', [
      ...describeQueueAdminRoutes(services),
      ...mediaAdminRoutes(services),
      ...geoBackfillAdminRoutes(services),
    ]);
  },
});
