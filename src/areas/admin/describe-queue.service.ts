/**
 * The description queue worked by an outside worker (CONTRACT.md, Jobs): pending -> claimed (a lease
 * that expires) -> described | failed; requeue puts an item back to pending; the describe-queue job
 * returns expired leases to pending (or to failed after maxDescribeAttempts claims).
 */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { type Page, type PageRequest, pageOf } from '../../platform/http/pagination.ts';
import { formatNullableTimestamp } from '../../platform/http/time.ts';
import { normaliseHashtags } from '../media/hashtags.ts';
import type { MediaRepository } from '../media/media.repository.ts';
import type { DescribeStatus, MediaRow } from '../media/tables.ts';

export const defaultLeaseSeconds = 300;
export const maxLeaseSeconds = 3600;
export const maxDescribeAttempts = 5;

export class DescribeQueueService {
  private readonly repository: MediaRepository;
  private readonly clock: Clock;

  constructor(repository: MediaRepository, clock: Clock) {
    this.repository = repository;
    this.clock = clock;
  }

  async list(statuses: DescribeStatus[], page: PageRequest): Promise<{ page: Page<MediaRow>; total: number }> {
    const rows = await this.repository.listQueue(statuses, page);
    return {
      page: pageOf(rows, page, (row) => [row.createdAt, row.id]),
      total: await this.repository.countQueue(statuses),
    };
  }

  async requirePost(id: string, pointer?: string): Promise<MediaRow> {
    const row = await this.repository.findPostById(id);
    if (row === null)
      throw new AppError('notFound', pointer ? { source: { pointer } } : { source: { parameter: 'hex' } });
    return row;
  }

  async claim(id: string, leaseSeconds = defaultLeaseSeconds): Promise<MediaRow> {
    const now = this.clock.now();
    const claimed = await this.repository.claim(id, now, new Date(now.getTime() + leaseSeconds * 1000));
    if (claimed !== null) return claimed;
    const row = await this.requirePost(id);
    if (row.describeStatus === 'claimed') {
      throw new AppError('mediaAlreadyClaimed', { meta: { claimedUntil: formatNullableTimestamp(row.claimedUntil) } });
    }
    throw new AppError('mediaNotInQueue', { meta: { describeStatus: row.describeStatus } });
  }

  async describe(id: string, input: { description: string; hashtags?: string[]; locale?: string }): Promise<MediaRow> {
    const row = await this.repository.finishClaim(id, this.clock.now(), {
      describeStatus: 'described',
      description: input.description,
      descriptionLocale: input.locale ?? null,
      hashtags: normaliseHashtags(input.hashtags ?? []),
      failReason: null,
    });
    if (row !== null) return row;
    await this.requirePost(id, '/mediaId');
    throw new AppError('mediaNotClaimed', { source: { pointer: '/mediaId' } });
  }

  async fail(id: string, reason: string): Promise<MediaRow> {
    const row = await this.repository.finishClaim(id, this.clock.now(), {
      describeStatus: 'failed',
      failReason: reason,
    });
    if (row !== null) return row;
    await this.requirePost(id);
    throw new AppError('mediaNotClaimed');
  }

  /** Back to pending from any state, lease and failure forgotten. */
  async requeue(id: string): Promise<MediaRow> {
    await this.requirePost(id, '/mediaId');
    const row = await this.repository.update(id, {
      describeStatus: 'pending',
      claimedUntil: null,
      failReason: null,
      describeAttempts: 0,
      updatedAt: this.clock.now(),
    });
    return row!;
  }

  /** The describe-queue job. */
  async releaseExpiredClaims() {
    return this.repository.releaseExpiredClaims(this.clock.now(), maxDescribeAttempts);
  }
}
