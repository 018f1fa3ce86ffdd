/**
 * The description queue worked by an outside worker (CONTRACT.md, Jobs): pending -> claimed (a lease
 * that expires) -> described | failed; requeue puts an item back to pending; the describe-queue job
 * returns expired leases to pending (or to failed after maxDescribeAttempts claims). Every admin call
 * is audited here, in the transaction of the change it records.
 */
import type { AuditLog } from '../../../platform/audit/audit-log.ts';
import type { Clock } from '../../../platform/clock.ts';
import { type Page, pageOf } from '../../../platform/db/page.ts';
import type { PageRequest } from '../../../platform/db/page-request.ts';
import { returned } from '../../../platform/db/returned.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import type { EventBus } from '../../../platform/events/domain-events.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { formatNullableTimestamp } from '../../../platform/http/time.ts';
import { toHex } from '../../../platform/ids/ids.ts';
import { normaliseHashtags } from '../../../platform/text/hashtags.ts';
import { describeQueueKeyset, type MediaRepository } from '../media.repository.ts';
import type { DescribeStatus, MediaRow } from '../tables.ts';

export const defaultLeaseSeconds = 300;
export const maxLeaseSeconds = 3600;
export const maxDescribeAttempts = 5;

export interface DescribeQueueServiceDeps {
  transactions: Transactions;
  audit: AuditLog;
  repository: MediaRepository;
  clock: Clock;
  events: EventBus;
}

export class DescribeQueueService {
  readonly #deps: DescribeQueueServiceDeps;

  constructor(deps: DescribeQueueServiceDeps) {
    this.#deps = deps;
  }

  /** Runs an admin action on one media and audits it in the same transaction. */
  #audited(
    action: string,
    id: string,
    change: () => Promise<MediaRow>,
    payload: (row: MediaRow) => object = () => ({}),
  ) {
    return this.#deps.transactions.run(async () => {
      const row = await change();
      await this.#deps.audit.record({
        actor: 'admin',
        action,
        targetType: 'media',
        targetId: id,
        payload: { ...payload(row) },
      });
      return row;
    });
  }

  async list(statuses: DescribeStatus[], page: PageRequest): Promise<{ page: Page<MediaRow>; total: number }> {
    const rows = await this.#deps.repository.listQueue(statuses, page);
    const total = await this.#deps.repository.countQueue(statuses);
    await this.#deps.audit.record({ actor: 'admin', action: 'media.describeQueue.list', payload: { statuses } });
    return { page: pageOf(rows, page, describeQueueKeyset), total };
  }

  /** Audits that the describer was sent a media's image. */
  recordImageSent(id: string): Promise<void> {
    return this.#deps.audit.record({
      actor: 'admin',
      action: 'media.base64',
      targetType: 'media',
      targetId: id,
      payload: {},
    });
  }

  async requirePost(id: string, pointer?: string): Promise<MediaRow> {
    const row = await this.#deps.repository.findPostById(id);
    if (row === null)
      throw new AppError('notFound', pointer ? { source: { pointer } } : { source: { parameter: 'hex' } });
    return row;
  }

  claim(id: string, leaseSeconds = defaultLeaseSeconds): Promise<MediaRow> {
    return this.#audited(
      'media.claim',
      id,
      () => this.#claim(id, leaseSeconds),
      (row) => ({
        claimedUntil: row.claimedUntil?.toISOString() ?? null,
      }),
    );
  }

  async #claim(id: string, leaseSeconds: number): Promise<MediaRow> {
    const now = this.#deps.clock.now();
    const claimed = await this.#deps.repository.claim(id, now, new Date(now.getTime() + leaseSeconds * 1000));
    if (claimed !== null) return claimed;
    const row = await this.requirePost(id);
    if (row.describeStatus === 'claimed') {
      throw new AppError('mediaAlreadyClaimed', { meta: { claimedUntil: formatNullableTimestamp(row.claimedUntil) } });
    }
    throw new AppError('mediaNotInQueue', { meta: { describeStatus: row.describeStatus } });
  }

  describe(id: string, input: { description: string; hashtags?: string[]; locale?: string }): Promise<MediaRow> {
    return this.#audited(
      'media.describe',
      id,
      () => this.#describe(id, input),
      (row) => ({
        hex: toHex(id),
        locale: input.locale ?? null,
        hashtags: row.hashtags,
      }),
    );
  }

  async #describe(id: string, input: { description: string; hashtags?: string[]; locale?: string }): Promise<MediaRow> {
    const row = await this.#deps.repository.finishClaim(id, this.#deps.clock.now(), {
      describeStatus: 'described',
      description: input.description,
      descriptionLocale: input.locale ?? null,
      hashtags: normaliseHashtags(input.hashtags ?? []),
      failReason: null,
    });
    if (row !== null) {
      await this.#deps.events.publish('media.changed', { media: row });
      return row;
    }
    await this.requirePost(id, '/mediaId');
    throw new AppError('mediaNotClaimed', { source: { pointer: '/mediaId' } });
  }

  fail(id: string, reason: string): Promise<MediaRow> {
    return this.#audited(
      'media.fail',
      id,
      () => this.#fail(id, reason),
      () => ({ reason }),
    );
  }

  async #fail(id: string, reason: string): Promise<MediaRow> {
    const row = await this.#deps.repository.finishClaim(id, this.#deps.clock.now(), {
      describeStatus: 'failed',
      failReason: reason,
    });
    if (row !== null) return row;
    await this.requirePost(id);
    throw new AppError('mediaNotClaimed');
  }

  /** Back to pending from any state, lease and failure forgotten. */
  requeue(id: string): Promise<MediaRow> {
    return this.#audited('media.requeue', id, () => this.#requeue(id));
  }

  async #requeue(id: string): Promise<MediaRow> {
    await this.requirePost(id, '/mediaId');
    const row = await this.#deps.repository.update(id, {
      describeStatus: 'pending',
      claimedUntil: null,
      failReason: null,
      describeAttempts: 0,
      updatedAt: this.#deps.clock.now(),
    });
    return returned(row, 'media.update');
  }

  /** The describe-queue job. */
  async releaseExpiredClaims() {
    return this.#deps.repository.releaseExpiredClaims(this.#deps.clock.now(), maxDescribeAttempts);
  }
}
