/**
 * Named jobs on pg-boss, a job queue kept in the service's own database (PGlite or PostgreSQL):
 * each job is a queue with an optional cron schedule, retries with exponential backoff, and failures
 * kept where an operator can read them (`pgboss.job`, see docs/operations.md). pg-boss files one job
 * per schedule slot whatever the number of instances, and a `singleton` queue runs one at a time.
 *
 * Queues deliver a job at least once, so every handler is idempotent in the database (e.g. the push
 * flush claims its rows with a conditional update). `run(name)` runs a handler at once in this
 * process, for POST /admin/jobs/flush/{job}; an in-process mutex keeps one run per job per instance.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../db/database.ts';
import { KeyedMutex } from '../db/keyed-mutex.ts';
import type { JobRunOutcome } from '../metrics/metrics.ts';

/** Every job name of the contract; an area registers the handler of each as it lands. */
export const jobNames = [
  'notifications-push',
  'describe-queue',
  'search-index',
  'stats',
  'map-clusters',
  'hashtags',
  'bans',
  'account-erasure',
  'media-variants',
  'mail-outbox',
  'federation-queue',
  'remote-posts',
  'trips',
  'after-commit-retries',
] as const;
export type JobName = (typeof jobNames)[number];

export type JobReport = Record<string, unknown>;

export interface JobDefinition {
  /** UTC cron expression of the periodic run (pg-boss files at most one job a minute), or null: on demand only. */
  schedule: string | null;
  run(): Promise<JobReport>;
  /** When true for a queued run's report, the run counts as failed and the queue retries it with backoff. */
  retryWhen?(report: JobReport): boolean;
  /** Told at a graceful stop, before the runs in progress are awaited: take no new work (the outbox's sender). */
  stop?(): void;
}

/** Told of every run in this process, queued or on demand, once it ends. */
export type JobRunObserver = (job: JobName, outcome: JobRunOutcome, seconds: number) => void;

export type JobOutcome = { job: JobName; ran: true; report: JobReport } | { job: JobName; ran: false; reason: 'busy' };

/** How the queue retries and polls; tests shorten the delays. */
export interface JobQueueOptions {
  /** Retries after a failed run, with exponential backoff from retryDelaySeconds up to retryDelayMaxSeconds. */
  retryLimit: number;
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
  /** A run still active after this long is failed and retried (a crashed instance never holds a job forever). */
  expireInSeconds: number;
  /**
   * A running job's instance writes a heartbeat every half of this; a run whose heartbeat stops (its
   * instance frozen or gone) is failed and retried at the next supervision, so it holds its job for
   * about a minute or two, not until expireInSeconds. pg-boss refuses less than 10.
   */
  heartbeatSeconds: number;
  /** How often this instance looks for runs whose heartbeat stopped or that expired (pg-boss's supervision and monitor). */
  superviseIntervalSeconds: number;
  pollingIntervalSeconds: number;
  /** How often this instance looks for due schedules (pg-boss's cron worker and monitor). */
  cronIntervalSeconds: number;
}

export const defaultJobQueueOptions: JobQueueOptions = {
  retryLimit: 5,
  retryDelaySeconds: 15,
  retryDelayMaxSeconds: 600,
  expireInSeconds: 900,
  heartbeatSeconds: 60,
  superviseIntervalSeconds: 60,
  pollingIntervalSeconds: 5,
  cronIntervalSeconds: 30,
};

/** The schema pg-boss keeps its tables in (created and migrated by pg-boss itself at start). */
export const jobsSchema = 'pgboss';

/** A cron expression that fires every `minutes` minutes (on the hour's multiples of it below an hour). */
export function everyMinutes(minutes: number): string {
  if (!Number.isInteger(minutes) || minutes < 1) throw new RangeError(`not a whole number of minutes: ${minutes}`);
  if (minutes < 60) return minutes === 1 ? '* * * * *' : `*/${minutes} * * * *`;
  const hours = Math.round(minutes / 60);
  if (hours >= 24) return '0 0 * * *';
  return hours === 1 ? '0 * * * *' : `0 */${hours} * * *`;
}

/** A cron expression that fires once a day at `hour`:`minute` UTC (a repair's quiet hour). */
export function dailyAt(hour: number, minute: number): string {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`not an hour of the day: ${hour}`);
  return `${minuteOfHour(minute)} ${hour} * * *`;
}

function minuteOfHour(minute: number): number {
  if (!Number.isInteger(minute) || minute < 0 || minute > 59)
    throw new RangeError(`not a minute of the hour: ${minute}`);
  return minute;
}

/** A run that did its part but left work to retry; pg-boss records it as failed and retries it. */
export class JobRetryError extends Error {
  readonly report: JobReport;

  constructor(job: JobName, report: JobReport) {
    super(`job ${job} left work to retry: ${JSON.stringify(report)}`);
    this.name = 'JobRetryError';
    this.report = report;
  }
}

export class JobRunner {
  readonly #jobs = new Map<JobName, JobDefinition>();
  readonly #running = new KeyedMutex();
  readonly #database: Database;
  readonly #logger: FastifyBaseLogger;
  readonly #observe: JobRunObserver;
  #boss: PgBoss | null = null;
  #starting: Promise<void> | null = null;
  #started = false;
  #resolveStarted!: () => void;
  readonly #startedOnce = new Promise<void>((resolve) => {
    this.#resolveStarted = resolve;
  });

  constructor(database: Database, logger: FastifyBaseLogger, observe: JobRunObserver = () => {}) {
    this.#database = database;
    this.#logger = logger;
    this.#observe = observe;
  }

  register(name: JobName, definition: JobDefinition) {
    if (!(jobNames as readonly string[]).includes(name)) throw new Error(`unknown job name ${name}`);
    if (this.#jobs.has(name)) throw new Error(`job ${name} is registered twice`);
    this.#jobs.set(name, definition);
  }

  has(name: string): name is JobName {
    return this.#jobs.has(name as JobName);
  }

  names(): JobName[] {
    return [...this.#jobs.keys()];
  }

  /** Runs the job now in this process, unless this process is running it already. */
  async run(name: JobName): Promise<JobOutcome> {
    const job = this.#definition(name);
    const outcome = await this.#running.tryRun(name, () => this.#timed(name, job));
    return outcome.ran ? { job: name, ran: true, report: outcome.value } : { job: name, ran: false, reason: 'busy' };
  }

  /**
   * Files a run of the job on the queue now, for a write that gives it work (an upload gives
   * media-variants some), rather than waiting for its schedule; nothing when the queue does not run
   * in this process (tests that do not start it, the CLI): the schedule then picks the work up.
   */
  async enqueue(name: JobName): Promise<void> {
    this.#definition(name);
    const boss = this.#boss;
    if (boss === null || this.#starting === null) return;
    await this.#starting;
    await boss.send(name, null);
  }

  /** The queue's handler: waits for an on-demand run in progress rather than skipping its slot. */
  async #runQueued(name: JobName): Promise<JobReport> {
    const job = this.#definition(name);
    const report = await this.#running.run(name, () => this.#timed(name, job));
    if (job.retryWhen?.(report)) throw new JobRetryError(name, report);
    this.#logger.info({ event: 'job.ran', job: name, report }, `job ${name} ran`);
    return report;
  }

  /** Runs the job and tells the observer how it ended and how long it took (once it holds the job's mutex). */
  async #timed(name: JobName, job: JobDefinition): Promise<JobReport> {
    const started = performance.now();
    let outcome: JobRunOutcome = 'failed';
    try {
      const report = await job.run();
      outcome = job.retryWhen?.(report) ? 'retry' : 'completed';
      return report;
    } finally {
      this.#observe(name, outcome, (performance.now() - started) / 1000);
    }
  }

  #definition(name: JobName): JobDefinition {
    const job = this.#jobs.get(name);
    if (!job) throw new Error(`unknown job ${name}`);
    return job;
  }

  /**
   * Starts pg-boss in the background (creating or migrating its schema takes seconds on PGlite), then
   * the queues, schedules and workers of the registered jobs. Resolves when all of that is done;
   * main.ts does not wait for it before listening. Schedules of job names no longer registered are
   * removed, so a renamed job never lingers.
   */
  start(options: Partial<JobQueueOptions> = {}): Promise<void> {
    this.#starting ??= this.#start({ ...defaultJobQueueOptions, ...options });
    return this.#starting;
  }

  async #start(options: JobQueueOptions): Promise<void> {
    // Loaded here, after the server listens: nothing before the first job needs pg-boss's modules.
    const { PgBoss } = await import('pg-boss');
    const boss = new PgBoss({
      db: await this.#database.jobsDatabase(),
      backend: this.#database.engine === 'pglite' ? 'pglite' : 'postgres',
      schema: jobsSchema,
      cronWorkerIntervalSeconds: options.cronIntervalSeconds,
      cronMonitorIntervalSeconds: Math.min(45, options.cronIntervalSeconds),
      superviseIntervalSeconds: options.superviseIntervalSeconds,
      monitorIntervalSeconds: options.superviseIntervalSeconds,
      openTelemetry: { enabled: false },
    });
    boss.on('error', (error) => this.#logger.error({ event: 'jobs.error', err: error }, 'job queue error'));
    boss.on('warning', (warning) => this.#logger.warn({ event: 'jobs.warning', warning }, 'job queue warning'));
    this.#boss = boss;
    await boss.start();
    for (const [name, job] of this.#jobs) {
      const queue = {
        policy: 'singleton' as const,
        retryLimit: options.retryLimit,
        retryDelay: options.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: options.retryDelayMaxSeconds,
        expireInSeconds: options.expireInSeconds,
        heartbeatSeconds: options.heartbeatSeconds,
      };
      if (await boss.getQueue(name)) {
        const { policy: _fixedAtCreation, ...changeable } = queue;
        await boss.updateQueue(name, changeable);
      } else await boss.createQueue(name, queue);
      if (job.schedule === null) await boss.unschedule(name);
      else await boss.schedule(name, job.schedule, null, { tz: 'UTC' });
      await boss.work(name, { pollingIntervalSeconds: options.pollingIntervalSeconds }, () => this.#runQueued(name));
    }
    for (const schedule of await boss.getSchedules()) {
      if (this.has(schedule.name)) continue;
      await boss.unschedule(schedule.name, schedule.key);
      this.#logger.warn(
        { event: 'jobs.staleSchedule', job: schedule.name },
        `removed the schedule of unknown job ${schedule.name}`,
      );
    }
    this.#started = true;
    this.#resolveStarted();
    this.#logger.info({ event: 'jobs.started', jobs: this.names() }, 'job queue started');
  }

  /** Whether the queue runs in this process: started, and not stopped since (GET /health/ready). */
  get started(): boolean {
    return this.#started;
  }

  /**
   * Resolves once the queue has first started (never, in a process that does not start it): work a
   * server does at start-up but no request waits for (the pages' assets) waits for it, so that it
   * neither delays the first answers nor the readiness.
   */
  whenStarted(): Promise<void> {
    return this.#startedOnce;
  }

  /** The pg-boss instance once started (tests read job states through it). */
  get queue(): PgBoss | null {
    return this.#boss;
  }

  /**
   * Queued and active jobs per registered job name, as pg-boss last counted them (its monitor
   * refreshes the counts), for GET /admin/stats; null when the queue does not run in this process.
   */
  async depths(): Promise<Record<string, { queued: number; active: number }> | null> {
    const starting = this.#starting;
    if (starting === null || this.#boss === null) return null;
    try {
      await starting;
      const queues = await this.#boss.getQueues(this.names());
      return Object.fromEntries(
        queues.map((queue) => [queue.name, { queued: queue.queuedCount, active: queue.activeCount }]),
      );
    } catch (error) {
      this.#logger.warn({ event: 'jobs.depthsFailed', err: error }, 'queue depths not read');
      return null;
    }
  }

  /** Tells every job to take no new work, then stops the workers, waiting for runs in progress, and pg-boss. */
  async stop() {
    this.#started = false;
    for (const job of this.#jobs.values()) job.stop?.();
    const starting = this.#starting;
    if (!starting) return;
    await starting.catch(() => undefined);
    await this.#boss?.stop({ graceful: true, close: false, timeout: 10_000 });
    this.#boss = null;
    this.#starting = null;
  }
}
