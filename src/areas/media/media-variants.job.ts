/**
 * The media-variants job: renders the common variants (media-variants.ts `commonVariants`) of media
 * uploaded since its last run, so readers find them stored rather than asking for a render. An upload
 * leaves `variants_rendered_at` null, which queues the media, and files a run (jobs.enqueue) once it
 * commits; the schedule (every minute) picks up what a run missed (a restart, another instance).
 * Newest first, so a backlog never delays fresh uploads. Idempotent: stored variants are skipped, and
 * a media is marked done even when its render failed (a damaged original is not retried forever; a
 * reader's request renders it again and answers the error).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { JobReport } from '../../platform/jobs/jobs.ts';
import type { MediaVariantsRepository } from './media-variants.repository.ts';
import type { MediaVariantService } from './media-variants.ts';

/** Media per batch, and batches per run: a run renders at most 200 media; the next run goes on. */
const batchSize = 20;
const batchesPerRun = 10;

export class MediaVariantsJob {
  private readonly repository: MediaVariantsRepository;
  private readonly variants: MediaVariantService;
  private readonly clock: Clock;
  private readonly logger: FastifyBaseLogger;

  constructor(
    repository: MediaVariantsRepository,
    variants: MediaVariantService,
    clock: Clock,
    logger: FastifyBaseLogger,
  ) {
    this.repository = repository;
    this.variants = variants;
    this.clock = clock;
    this.logger = logger;
  }

  async run(): Promise<JobReport> {
    const report = { media: 0, rendered: 0, skipped: 0, failed: 0, more: false };
    for (let batch = 0; batch < batchesPerRun; batch += 1) {
      const rows = await this.repository.pending(batchSize);
      for (const row of rows) {
        try {
          const outcome = await this.variants.renderCommon(row);
          report.rendered += outcome.rendered;
          report.skipped += outcome.skipped;
        } catch (error) {
          report.failed += 1;
          this.logger.warn({ event: 'media.variantsFailed', mediaId: row.id, err: error }, 'variants not rendered');
        }
      }
      await this.repository.markRendered(
        rows.map((row) => row.id),
        this.clock.now(),
      );
      report.media += rows.length;
      if (rows.length < batchSize) return report;
    }
    report.more = true;
    return report;
  }
}
