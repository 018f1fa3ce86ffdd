/**
 * The probes as a load balancer or Kubernetes reads them: /health/live answers while the process
 * does; /health/ready only while the database answers, the migrations are applied, the job queue
 * runs and no stop has begun. The database is made unreachable for real: on PostgreSQL a cluster of
 * the test's own is stopped (and started again: ready comes back by itself), on PGlite it is closed.
 * The stop sequence of the real server is test/e2e/graceful-stop.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openTestDatabase, testEngine } from '../../../test/helpers/database.ts';
import {
  type PrivatePostgres,
  privatePostgresUnavailable,
  startPrivatePostgres,
} from '../../../test/helpers/private-postgres.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPostgres } from '../db/postgres-database.ts';

/** A database this file can make unreachable: its own PostgreSQL cluster, or a PGlite copy it closes. */
interface BreakableDatabase {
  database: Database;
  cut(): Promise<void>;
  /** Brings it back (PostgreSQL only: a closed PGlite stays closed). */
  restore: (() => Promise<void>) | null;
  remove(): Promise<void>;
}

async function breakableDatabase(): Promise<BreakableDatabase> {
  if (testEngine() === 'pglite') {
    const database = await openTestDatabase();
    return { database, cut: () => database.close(), restore: null, remove: () => database.close() };
  }
  const unavailable = privatePostgresUnavailable();
  if (unavailable !== null) throw new Error(unavailable);
  const cluster: PrivatePostgres = await startPrivatePostgres();
  const database = openPostgres(cluster.url, 3);
  await migrate(database);
  return {
    database,
    cut: () => cluster.stop(),
    restore: () => cluster.start(),
    remove: async () => {
      await database.close();
      await cluster.remove();
    },
  };
}

describe('health probes', () => {
  let t: TestApp;
  let breakable: BreakableDatabase;

  before(async () => {
    breakable = await breakableDatabase();
    t = await createTestApp({ database: breakable.database });
  });
  after(async () => {
    await t.services.platform.jobs.stop().catch(() => {});
    await t.close();
    await breakable.remove();
  });

  const ready = () => t.request({ method: 'GET', url: '/health/ready' });
  const live = () => t.request({ method: 'GET', url: '/health/live' });
  const notReadyChecks = async () => {
    const res = await ready();
    assert.equal(res.statusCode, 503);
    assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/);
    assert.equal(res.json.errors[0].code, 'notReady');
    return res.json.errors[0].meta.checks;
  };

  it('is live at once, and not ready before the job queue has started', async () => {
    const res = await live();
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json, { status: 'live' });
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.deepEqual(await notReadyChecks(), { database: 'ok', migrations: 'ok', jobs: 'notStarted', draining: false });
  });

  it('is ready once the queue runs, and stays so in maintenance mode', async () => {
    await t.services.platform.jobs.start({ retryDelaySeconds: 1, pollingIntervalSeconds: 0.5, cronIntervalSeconds: 1 });
    const res = await ready();
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.json, {
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', jobs: 'ok', draining: false },
    });
    const maintenance = (enabled: boolean) =>
      t.request({ method: 'PUT', url: '/admin/maintenance', token: adminToken, body: { enabled } });
    assert.equal((await maintenance(true)).statusCode, 200);
    try {
      assert.equal((await t.request({ method: 'GET', url: '/api/auth/me' })).statusCode, 503, 'maintenance is on');
      assert.equal((await ready()).statusCode, 200);
      assert.equal((await live()).statusCode, 200);
    } finally {
      assert.equal((await maintenance(false)).statusCode, 200);
    }
  });

  it('is not ready while the database is unreachable, and still live', async () => {
    await breakable.cut();
    const checks = await notReadyChecks();
    assert.equal(checks.database, 'unreachable');
    assert.equal(checks.jobs, 'ok');
    assert.equal((await live()).statusCode, 200);
    if (breakable.restore === null) return;
    await breakable.restore();
    // The pool opens new connections by itself: ready again with no restart of the instance.
    let res = await ready();
    for (let tries = 0; res.statusCode !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await ready();
    }
    assert.equal(res.statusCode, 200);
  });

  it('is not ready once a stop has begun, whatever the checks say', async () => {
    t.services.platform.readiness.beginDraining();
    assert.equal((await notReadyChecks()).draining, true);
    assert.equal((await live()).statusCode, 200);
  });
});
