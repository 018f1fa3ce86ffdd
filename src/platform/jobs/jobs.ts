/**
 * Named jobs: run periodically in the server process and on demand (POST /admin/jobs/flush/{job}).
 * A run holds the job's lock (a PostgreSQL advisory lock plus an in-process mutex), so with several
 * instances exactly one runs a job at a time; a run that finds the lock taken is skipped.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database, LockName } from '../db/database.ts';

/** Every job name of the contract; an area registers the handler of each as it lands. */
export const jobNames = ['notifications-push', 'describe-queue', 'search-index', 'stats'] as const;
export type JobName = (typeof jobNames)[number];

const lockOf: Record<JobName, LockName> = {
  'notifications-push': 'notificationsPush',
  'describe-queue': 'describeQueue',
  'search-index': 'searchIndex',
  stats: 'stats',
};

export type JobReport = Record<string, unknown>;

export interface JobDefinition {
  /** Period of the in-process schedule, or null to run only on demand. */
  intervalMs: number | null;
  run(): Promise<JobReport>;
}

export type JobOutcome = { job: JobName; ran: true; report: JobReport } | { job: JobName; ran: false; reason: 'busy' };

export class JobRunner {
  readonly #jobs = new Map<JobName, JobDefinition>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #running = new Set<Promise<unknown>>();

  private readonly database: Database;
  private readonly logger: FastifyBaseLogger;

  constructor(database: Database, logger: FastifyBaseLogger) {
    this.database = database;
    this.logger = logger;
  }

  register(name: JobName, definition: JobDefinition) {
    if (this.#jobs.has(name)) throw new Error(`job ${name} is registered twice`);
    this.#jobs.set(name, definition);
  }

  has(name: string): name is JobName {
    return this.#jobs.has(name as JobName);
  }

  names(): JobName[] {
    return [...this.#jobs.keys()];
  }

  async run(name: JobName): Promise<JobOutcome> {
    const job = this.#jobs.get(name);
    if (!job) throw new Error(`unknown job ${name}`);
    const outcome = await this.database.tryWithLock(lockOf[name], () => job.run());
    return outcome.ran ? { job: name, ran: true, report: outcome.value } : { job: name, ran: false, reason: 'busy' };
  }

  /** Starts the periodic schedules of the registered jobs. */
  start() {
    for (const [name, job] of this.#jobs) {
      if (job.intervalMs === null) continue;
      const timer = setInterval(() => {
        const run = this.run(name)
          .then((outcome) => {
            if (outcome.ran)
              this.logger.info({ event: 'job.ran', job: name, report: outcome.report }, `job ${name} ran`);
          })
          .catch((error) => this.logger.error({ event: 'job.failed', job: name, err: error }, `job ${name} failed`))
          .finally(() => this.#running.delete(run));
        this.#running.add(run);
      }, job.intervalMs);
      timer.unref();
      this.#timers.push(timer);
    }
  }

  /** Stops the schedules and waits for runs in progress. */
  async stop() {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.length = 0;
    await Promise.allSettled([...this.#running]);
  }
}
