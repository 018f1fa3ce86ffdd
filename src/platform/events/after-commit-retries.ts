/**
 * After-commit work tried again when it fails. An after-commit subscriber's failure undoes nothing
 * (its change has committed), so for the derived tables kept after commit (the map's representatives
 * after a like, the hashtag counts after a post's change) a failure used to wait for its area's daily
 * repair: a like's move that waited too long for a lock left a wrong representative for up to a day.
 *
 * Such work is keyed and idempotent: it reads again what it brings up to date (a media's likes, a
 * post's tags), so running it twice, or late, ends where running it once on time would. When it fails,
 * `file` keeps its key (after_commit_retries, one row per work and key); the job after-commit-retries
 * runs the work again every minute for the rows due, with backoff, and gives a key up after
 * `maxAttempts` retries (logged; the area's daily repair then puts it right). Only failures are
 * written: a process that stops between a commit and its after-commit work loses that work to the
 * daily repair, as before.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { AfterCommitRetriesRepository, DueRetry } from './after-commit-retries.repository.ts';

export type RetriedWork = (key: string) => Promise<void>;

/** Retries before a key is given up: about 6 hours after its failure (the first within a minute, then 1, 2, 4 … 60 minutes apart). */
export const maxAttempts = 12;
const firstDelayMs = 60_000;
const maxDelayMs = 3_600_000;
/** Rows a run retries at most (the next run takes the rest). */
const perRun = 500;

/** The delay before the retry that follows `attempts` failed ones. */
export const retryDelayMs = (attempts: number): number => Math.min(firstDelayMs * 2 ** (attempts - 1), maxDelayMs);

export interface RetriesReport {
  retried: number;
  succeeded: number;
  failedAgain: number;
  givenUp: number;
  /** Rows left after the run, due or not. */
  waiting: number;
  [name: string]: unknown;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export class AfterCommitRetries {
  readonly #works = new Map<string, RetriedWork>();
  readonly #repository: AfterCommitRetriesRepository;
  readonly #clock: Clock;
  readonly #logger: FastifyBaseLogger;

  constructor(repository: AfterCommitRetriesRepository, clock: Clock, logger: FastifyBaseLogger) {
    this.#repository = repository;
    this.#clock = clock;
    this.#logger = logger;
  }

  /** The work behind a name, for the job to run again; each name once. */
  register(name: string, work: RetriedWork): void {
    if (this.#works.has(name)) throw new Error(`after-commit work ${name} is registered twice`);
    this.#works.set(name, work);
  }

  /** Keeps a failed work's key for the job (a failure to keep it is logged: the daily repair remains). */
  async file(name: string, key: string, error: unknown): Promise<void> {
    try {
      await this.#repository.file(name, key, messageOf(error), this.#clock.now());
    } catch (filingError) {
      this.#logger.error(
        { event: 'events.retryNotFiled', work: name, key, err: filingError },
        'a failed after-commit work was not filed for retry',
      );
    }
  }

  /** The job: runs again the work of every row due, oldest first. */
  async runDue(): Promise<RetriesReport> {
    const report: RetriesReport = { retried: 0, succeeded: 0, failedAgain: 0, givenUp: 0, waiting: 0 };
    for (const retry of await this.#repository.due(this.#clock.now(), perRun)) {
      report.retried += 1;
      const outcome = await this.#retry(retry);
      report[outcome] += 1;
    }
    report.waiting = await this.#repository.waiting();
    return report;
  }

  async #retry(retry: DueRetry): Promise<'succeeded' | 'failedAgain' | 'givenUp'> {
    const work = this.#works.get(retry.work);
    try {
      if (work === undefined) throw new Error(`no after-commit work is named ${retry.work}`);
      await work(retry.key);
      await this.#repository.remove(retry);
      return 'succeeded';
    } catch (error) {
      const attempts = retry.attempts + 1;
      if (attempts >= maxAttempts || work === undefined) {
        await this.#repository.remove(retry);
        this.#logger.error(
          { event: 'events.retryGivenUp', work: retry.work, key: retry.key, attempts, err: error },
          'after-commit work given up: the daily repair puts it right',
        );
        return 'givenUp';
      }
      const next = new Date(this.#clock.now().getTime() + retryDelayMs(attempts));
      await this.#repository.failedAgain(retry, messageOf(error), next);
      this.#logger.warn(
        { event: 'events.retryFailed', work: retry.work, key: retry.key, attempts, err: error },
        'after-commit work failed again',
      );
      return 'failedAgain';
    }
  }
}
