/**
 * Asks the job queue for a run of federation-queue when a message is filed: at once, or when a
 * delayed message comes due (a timer of this instance; the job's minute schedule catches what a
 * stopped instance's timers leave). Requests made while a run is already asked for and not started
 * are one run: a burst of deliveries files one job, not one per message.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { JobRunner } from '../../platform/jobs/jobs.ts';

/** A delay longer than this is left to the schedule. */
const longestTimerMs = 10 * 60_000;

export class QueueWake {
  readonly #jobs: JobRunner;
  readonly #logger: FastifyBaseLogger;
  #asked = false;

  constructor(jobs: JobRunner, logger: FastifyBaseLogger) {
    this.#jobs = jobs;
    this.#logger = logger;
  }

  request(delayMs: number): void {
    if (delayMs > 0) {
      if (delayMs <= longestTimerMs) setTimeout(() => this.request(0), delayMs).unref();
      return;
    }
    if (this.#asked) return;
    this.#asked = true;
    this.#jobs.enqueue('federation-queue').catch((error: unknown) => {
      this.#asked = false;
      this.#logger.warn({ event: 'federation.wakeFailed', err: error }, 'could not file a federation-queue run');
    });
  }

  /** A run starts: what is filed from now on needs another one. */
  started(): void {
    this.#asked = false;
  }
}
