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
 * written: a process that stops between a commit and its after-commit work, or a failure that cannot
 * be filed (the database unreachable), leaves that work to the daily repair, as before.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { doublingDelayMs } from '../concurrency/backoff.ts';
import type { AfterCommitRetriesRepository, DueRetry } from './after-commit-retries.repository.ts';

export type RetriedWork = (key: string) => Promise<void>;

/** Retries before a key is given up: about 6 hours after its failure (the first within a minute, then 1, 2, 4 … 60 minutes apart). */
export const maxAttempts = 12;
/** The wait after the `attempts`-th failed retry. */
export const retryDelayMs = (attempts: number): number => doublingDelayMs(attempts, 60_000, 3_600_000);
/**
 * Rows a run claims at most (the next run takes the rest), and for how long: a retry waits for a lock
 * at most 2 s (platform/db/lock-waits.ts), so a run ends well within its claim.
 */
const perRun = 200;
const claimMs = 15 * 60_000;

/** The job's report (a type, not an interface, so that it is a JobReport). */
export type RetriesReport = {
  retried: number;
  succeeded: number;
  failedAgain: number;
  givenUp: number;
  /** Rows left after the run, due or not. */
  waiting: number;
};

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

  /**
   * The work behind a name, for the job to run again. Several events may share one work (a post's
   * resync after its publication, edit or deletion); a name never stands for two. The name is kept in
   * the rows: rows of a renamed work wait, then are given up as failures.
   */
  register(name: string, work: RetriedWork): void {
    const known = this.#works.get(name);
    if (known !== undefined && known !== work) throw new Error(`after-commit work ${name} is registered twice`);
    this.#works.set(name, work);
  }

  /** Keeps a failed work's key for the job; false when it could not (logged: the daily repair remains). */
  async file(name: string, key: string, error: unknown): Promise<boolean> {
    try {
      await this.#repository.file(name, key, messageOf(error), this.#clock.now());
    } catch (filingError) {
      this.#logger.error(
        { event: 'events.retryNotFiled', work: name, key, err: filingError, cause: messageOf(error) },
        'a failed after-commit work was not filed for retry',
      );
      return false;
    }
    this.#logger.warn(
      { event: 'events.retryFiled', work: name, key, err: error },
      'after-commit work failed: filed for retry',
    );
    return true;
  }

  /** How many keys wait for a retry, due or not (GET /admin/stats' backlogs). */
  waiting(): Promise<number> {
    return this.#repository.waiting();
  }

  /** Forgets what waits under this work and key (in the transaction of an erasure). */
  forget(name: string, key: string): Promise<void> {
    return this.#repository.forget(name, key);
  }

  /** The job: runs again the work of every row due, oldest first. */
  async runDue(): Promise<RetriesReport> {
    const report: RetriesReport = { retried: 0, succeeded: 0, failedAgain: 0, givenUp: 0, waiting: 0 };
    const now = this.#clock.now();
    for (const retry of await this.#repository.claimDue(now, new Date(now.getTime() + claimMs), perRun)) {
      report.retried += 1;
      report[await this.#retry(retry)] += 1;
    }
    report.waiting = await this.waiting();
    return report;
  }

  async #retry(retry: DueRetry): Promise<'succeeded' | 'failedAgain' | 'givenUp'> {
    const failure = await this.#run(retry);
    if (failure === null) {
      await this.#repository.remove(retry);
      return 'succeeded';
    }
    const attempts = retry.attempts + 1;
    const logged = { work: retry.work, key: retry.key, attempts, err: failure };
    if (attempts >= maxAttempts) {
      await this.#repository.remove(retry);
      this.#logger.error(
        { event: 'events.retryGivenUp', ...logged },
        'after-commit work given up: the daily repair puts it right',
      );
      return 'givenUp';
    }
    const next = new Date(this.#clock.now().getTime() + retryDelayMs(attempts));
    await this.#repository.failedAgain(retry, messageOf(failure), next);
    this.#logger.warn({ event: 'events.retryFailed', ...logged }, 'after-commit work failed again');
    return 'failedAgain';
  }

  /** Runs the row's work: null when it succeeded, else why not (a work no longer registered fails). */
  async #run(retry: DueRetry): Promise<unknown> {
    const work = this.#works.get(retry.work);
    if (work === undefined) return new Error(`no after-commit work is named ${retry.work} in this instance`);
    try {
      await work(retry.key);
      return null;
    } catch (error) {
      return error ?? new Error('failed');
    }
  }
}
