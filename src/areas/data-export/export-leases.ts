/**
 * One running export per user, across instances: a lease row (export_leases) taken when an export
 * starts, renewed every `renewSeconds` while its archive streams, released when the stream ends or
 * fails. An instance that dies stops renewing: its lease expires after `leaseSeconds` and the next
 * export takes it over (no advisory lock: they do not survive a pooled connection).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { DataExportRepository } from './data-export.repository.ts';

export const exportLease = { leaseSeconds: 120, renewSeconds: 30 } as const;

export interface HeldLease {
  /** Stops renewing and deletes the row; safe to call more than once. */
  release(): Promise<void>;
}

export interface ExportLeasesDeps {
  repository: DataExportRepository;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export class ExportLeases {
  readonly #deps: ExportLeasesDeps;

  constructor(deps: ExportLeasesDeps) {
    this.#deps = deps;
  }

  #expiry(): Date {
    return new Date(this.#deps.clock.now().getTime() + exportLease.leaseSeconds * 1000);
  }

  /** Takes the user's lease, or throws 409 exportInProgress while another export of theirs runs. */
  async take(userId: string): Promise<HeldLease> {
    const holder = newId();
    if (!(await this.#deps.repository.acquire(userId, holder, this.#deps.clock.now(), this.#expiry()))) {
      throw new AppError('exportInProgress', {
        detail: 'another export of your data is running; try again when it has finished',
        meta: { leaseSeconds: exportLease.leaseSeconds },
      });
    }
    const renew = () =>
      this.#deps.repository.renew(userId, holder, this.#expiry()).catch((error: unknown) => {
        this.#deps.logger.warn({ event: 'dataExport.renewFailed', err: error }, 'could not renew an export lease');
        return false;
      });
    const timer = setInterval(renew, exportLease.renewSeconds * 1000);
    timer.unref();
    let released: Promise<void> | null = null;
    return {
      release: () => {
        clearInterval(timer);
        released ??= this.#deps.repository.release(userId, holder).catch((error: unknown) => {
          // The lease then expires by itself after leaseSeconds.
          this.#deps.logger.warn(
            { event: 'dataExport.releaseFailed', err: error },
            'could not release an export lease',
          );
        });
        return released;
      },
    };
  }

  /** An erased account's lease goes with it (user.erasing). */
  dropOfUser(userId: string): Promise<void> {
    return this.#deps.repository.deleteOfUser(userId);
  }
}
