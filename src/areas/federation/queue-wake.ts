/**
 * Asks the job queue for a run of federation-queue when a message is filed: at once, or when a
 * delayed message comes due (a timer of this instance; the job's minute schedule catches what a
 * stopped instance's timers leave). At most one request a second leaves this instance: those made
 * meanwhile become one more request at the end of that second, so a burst of deliveries files a few
 * runs, not one per message, and none is lost. Whichever instance takes a run drains every instance's
 * messages (they share the table).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { JobRunner } from '../../platform/jobs/jobs.ts';

/** A delay longer than this is left to the schedule. */
const longestTimerMs = 10 * 60_000;
const intervalMs = 1000;

export class QueueWake {
  readonly #jobs: JobRunner;
  readonly #logger: FastifyBaseLogger;
  #sending = false;
  #pending = false;

  constructor(jobs: JobRunner, logger: FastifyBaseLogger) {
    this.#jobs = jobs;
    this.#logger = logger;
  }

  request(delayMs: number): void {
    if (delayMs > 0) {
      if (delayMs <= longestTimerMs) setTimeout(() => this.request(0), delayMs).unref();
      return;
    }
    if (this.#sending) {
      this.#pending = true;
      return;
    }
    this.#sending = true;
    this.#pending = false;
    this.#jobs
      .enqueue('federation-queue')
      .catch((error: unknown) =>
        this.#logger.warn({ event: 'federation.wakeFailed', err: error }, 'could not file a federation-queue run'),
      )
      .finally(() =>
        setTimeout(() => {
          this.#sending = false;
          if (this.#pending) this.request(0);
        }, intervalMs).unref(),
      );
  }
}
