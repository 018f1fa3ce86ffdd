import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { openTestDatabase } from '../../../test/helpers/database.ts';
import { type Database, LockKey } from '../db/database.ts';
import { openPostgres } from '../db/postgres-database.ts';
import { JobRunner } from './jobs.ts';

const silent = pino({ level: 'silent' });

/** A job that waits until released, so tests can hold it "running". */
function gatedJob() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let runs = 0;
  return {
    definition: {
      intervalMs: null,
      run: async () => {
        runs += 1;
        await gate;
        return { runs };
      },
    },
    release: () => release(),
    runs: () => runs,
  };
}

describe('job runner', () => {
  let database: Database;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  it('runs a job on demand and answers its report', async () => {
    const jobs = new JobRunner(database, silent);
    jobs.register('stats', { intervalMs: null, run: async () => ({ counted: 3 }) });
    assert.deepEqual(await jobs.run('stats'), { job: 'stats', ran: true, report: { counted: 3 } });
  });

  it('skips a run while the same job is running, and runs again once it ended', async () => {
    const jobs = new JobRunner(database, silent);
    const job = gatedJob();
    jobs.register('notifications-push', job.definition);
    const first = jobs.run('notifications-push');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(await jobs.run('notifications-push'), { job: 'notifications-push', ran: false, reason: 'busy' });
    job.release();
    assert.equal((await first).ran, true);
    assert.equal((await jobs.run('notifications-push')).ran, true);
    assert.equal(job.runs(), 2);
  });

  it('refuses a job registered twice', () => {
    const jobs = new JobRunner(database, silent);
    jobs.register('stats', { intervalMs: null, run: async () => ({}) });
    assert.throws(() => jobs.register('stats', { intervalMs: null, run: async () => ({}) }), /registered twice/);
  });

  it('on PostgreSQL, a second instance (another connection pool) skips while the first runs', {
    skip: !process.env.DATABASE_URL,
  }, async () => {
    // Both runners point at the same database through separate pools, like two server instances.
    const url = new URL(process.env.DATABASE_URL!);
    const currentDb = await database.db.execute('SELECT current_database() AS name');
    url.pathname = `/${(currentDb as unknown as { rows: Array<{ name: string }> }).rows[0]!.name}`;
    const other = openPostgres(url.toString(), 2);
    try {
      const jobA = gatedJob();
      const a = new JobRunner(database, silent);
      a.register('search-index', jobA.definition);
      const b = new JobRunner(other, silent);
      b.register('search-index', { intervalMs: null, run: async () => ({ ranOnB: true }) });
      const running = a.run('search-index');
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Both runners share this process's mutex, so ask PostgreSQL itself, from the other pool,
      // whether the advisory lock is held.
      const probe = async () =>
        (await other.pool.query('SELECT pg_try_advisory_lock($1) AS got', [LockKey.searchIndex])).rows[0]
          .got as boolean;
      assert.equal(await probe(), false, 'the advisory lock is held across connections while the job runs');
      jobA.release();
      await running;
      assert.equal(await probe(), true, 'released when the run ended');
      await other.pool.query('SELECT pg_advisory_unlock($1)', [LockKey.searchIndex]);
      assert.deepEqual(await b.run('search-index'), { job: 'search-index', ran: true, report: { ranOnB: true } });
    } finally {
      await other.close();
    }
  });
});
