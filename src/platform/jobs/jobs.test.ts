/**
 * The job runner on pg-boss, on the test engine: on-demand runs, retries with backoff, and schedules
 * that run once per period however many instances serve (two on PostgreSQL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { openAnotherInstance, openTestDatabase } from '../../../test/helpers/database.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import type { Database } from '../db/database.ts';
import { queryRows } from '../db/rows.ts';
import { dailyAt, everyMinutes, type JobDefinition, type JobQueueOptions, JobRunner } from './jobs.ts';

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
/** Short delays so a retry or a schedule shows within seconds. */
const fast: Partial<JobQueueOptions> = {
  retryDelaySeconds: 1,
  retryDelayMaxSeconds: 2,
  pollingIntervalSeconds: 0.5,
  cronIntervalSeconds: 1,
  heartbeatSeconds: 10,
  superviseIntervalSeconds: 1,
};

/** A job that waits until released, so tests can hold it "running". */
function gatedJob() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let runs = 0;
  const definition: JobDefinition = {
    schedule: null,
    run: async () => {
      runs += 1;
      await gate;
      return { runs };
    },
  };
  return { definition, release: () => release(), runs: () => runs };
}

describe('job runner', () => {
  let database: Database;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  it('runs a job on demand and answers its report', async () => {
    const jobs = new JobRunner(database, silent);
    jobs.register('stats', { schedule: null, run: async () => ({ counted: 3 }) });
    assert.deepEqual(await jobs.run('stats'), { job: 'stats', ran: true, report: { counted: 3 } });
  });

  it('skips an on-demand run while this instance runs the same job, and runs again once it ended', async () => {
    const jobs = new JobRunner(database, silent);
    const job = gatedJob();
    jobs.register('notifications-push', job.definition);
    const first = jobs.run('notifications-push');
    await waitFor('the first run to start', () => job.runs() === 1);
    assert.deepEqual(await jobs.run('notifications-push'), { job: 'notifications-push', ran: false, reason: 'busy' });
    job.release();
    assert.equal((await first).ran, true);
    assert.equal((await jobs.run('notifications-push')).ran, true);
    assert.equal(job.runs(), 2);
  });

  it('refuses a job registered twice, and a name outside the contract', () => {
    const jobs = new JobRunner(database, silent);
    jobs.register('stats', { schedule: null, run: async () => ({}) });
    assert.throws(() => jobs.register('stats', { schedule: null, run: async () => ({}) }), /registered twice/);
    assert.throws(
      () => jobs.register('sats' as 'stats', { schedule: null, run: async () => ({}) }),
      /unknown job name/,
    );
  });

  it('turns a period in minutes into a cron expression', () => {
    assert.equal(everyMinutes(1), '* * * * *');
    assert.equal(everyMinutes(5), '*/5 * * * *');
    assert.equal(everyMinutes(60), '0 * * * *');
    assert.equal(everyMinutes(180), '0 */3 * * *');
    assert.equal(everyMinutes(1440), '0 0 * * *');
    assert.throws(() => everyMinutes(0), RangeError);
  });

  it('turns a time of day into a daily cron expression', () => {
    assert.equal(dailyAt(3, 15), '15 3 * * *');
    assert.equal(dailyAt(0, 0), '0 0 * * *');
    assert.throws(() => dailyAt(24, 0), RangeError);
    assert.throws(() => dailyAt(3, 60), RangeError);
  });

  it('a queued job that fails is retried with backoff, then succeeds; the failure stays readable', async () => {
    const jobs = new JobRunner(database, silent);
    let runs = 0;
    jobs.register('stats', {
      schedule: null,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('the first run fails');
        return { counted: 1 };
      },
    });
    // What waits for the start (the pages' assets) is let go once the queue runs, not before.
    let whenStarted = false;
    void jobs.whenStarted().then(() => {
      whenStarted = jobs.started;
    });
    await jobs.start(fast);
    await jobs.whenStarted();
    assert.equal(whenStarted, true);
    try {
      const id = await jobs.queue!.send('stats', {});
      const done = await waitFor(
        'the retried job to complete',
        async () => {
          const [job] = await jobs.queue!.findJobs('stats', { id: id! });
          return job?.state === 'completed' ? job : null;
        },
        30_000,
      );
      assert.equal(runs, 2);
      assert.equal(done.retryCount, 1);
      assert.deepEqual(done.output, { counted: 1 });
    } finally {
      await jobs.stop();
    }
  });

  it('a run whose report asks for a retry is failed and retried by the queue', async () => {
    const jobs = new JobRunner(database, silent);
    let runs = 0;
    jobs.register('search-index', {
      schedule: null,
      run: async () => ({ leftOver: ++runs === 1 ? 1 : 0 }),
      retryWhen: (report) => report.leftOver !== 0,
    });
    await jobs.start(fast);
    try {
      const id = await jobs.queue!.send('search-index', {});
      const done = await waitFor(
        'the job to complete',
        async () => {
          const [job] = await jobs.queue!.findJobs('search-index', { id: id! });
          return job?.state === 'completed' ? job : null;
        },
        30_000,
      );
      assert.equal(runs, 2);
      assert.equal(done.retryCount, 1);
    } finally {
      await jobs.stop();
    }
  });

  it('a run whose heartbeat stopped (its instance frozen or gone) is taken over by another instance, without waiting for its expiry', async () => {
    // Two instances: the first holds the run (its worker busy with it), the other takes the retry.
    const second = await openAnotherInstance(database);
    const stalled = gatedJob();
    let takenOver = 0;
    const [first, other] = [new JobRunner(database, silent), new JobRunner(second.database, silent)];
    first.register('stats', stalled.definition);
    other.register('stats', { schedule: null, run: async () => ({ takenOver: ++takenOver }) });
    try {
      await first.start(fast);
      const id = await first.queue!.send('stats', {});
      await waitFor('the first instance holding the run', () => stalled.runs() === 1);
      await other.start(fast);
      // What an instance frozen for longer than the heartbeat leaves: an active run with an old heartbeat.
      await database.db.execute(
        sql`UPDATE pgboss.job SET heartbeat_on = now() - interval '1 hour' WHERE id = ${id}::uuid AND state = 'active'`,
      );
      await waitFor('the other instance running the job', () => takenOver === 1, 30_000);
      const [job] = await other.queue!.findJobs('stats', { id: id! });
      assert.equal(job?.retryCount, 1, 'the stalled run was failed and retried');
      assert.equal(stalled.runs(), 1, 'the stalled instance did not run it again');
    } finally {
      stalled.release();
      await Promise.all([first.stop(), other.stop()]);
      await second.close();
    }
  });

  it('a scheduled job runs once per period, with two instances on PostgreSQL', { timeout: 150_000 }, async () => {
    const second = await openAnotherInstance(database);
    const ranAt: Date[] = [];
    const instances = [new JobRunner(database, silent), new JobRunner(second.database, silent)];
    if (database.engine === 'pglite') instances.pop(); // one process owns PGlite's files
    for (const jobs of instances) {
      jobs.register('describe-queue', {
        schedule: '* * * * *',
        run: async () => {
          ranAt.push(new Date());
          return {};
        },
      });
    }
    // The minutes (the schedule's periods) the test spans, read from the database's clock as pg-boss's
    // cron does: the queue may file the period the schedule was made in, and each one after, once each.
    const minute = async () =>
      (
        await queryRows<{ minute: number }>(
          database.db,
          sql`SELECT floor(extract(epoch FROM now()) / 60)::int AS minute`,
        )
      )[0]!.minute;
    const firstMinute = await minute();
    try {
      await Promise.all(instances.map((jobs) => jobs.start(fast)));
      await waitFor('the first scheduled run', async () => ranAt[0], 100_000);
      // Wait well past every instance's cron pass for that minute: a second job for it would exist by now.
      // The wall clock, since pg-boss's cron reads it (no injected clock reaches the queue's schedules).
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      const periods = (await minute()) - firstMinute + 1;
      // Counted by period, not by the minute a job was created in: a pass just before a minute ends
      // files that minute's job a moment into the next, beside the next minute's own.
      const [{ jobs }] = (await queryRows<{ jobs: number }>(
        database.db,
        sql`SELECT count(*)::int AS jobs FROM pgboss.job WHERE name = 'describe-queue'`,
      )) as [{ jobs: number }];
      assert.ok(jobs >= 1 && jobs <= periods, `${jobs} jobs in ${periods} periods: one job a period at most`);
      assert.ok(ranAt.length <= jobs, 'no job ran twice');
      const schedules = await instances[0]!.queue!.getSchedules('describe-queue');
      assert.equal(schedules.length, 1, 'both instances share one schedule');
    } finally {
      await Promise.all(instances.map((jobs) => jobs.stop()));
      await second.close();
    }
  });
});
