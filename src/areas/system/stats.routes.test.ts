/** GET /admin/stats: counts over rolling windows from the injected clock, backlogs, job queues; kept 45 s. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

const hour = 3_600_000;
const day = 24 * hour;

describe('GET /admin/stats', () => {
  let t: TestApp;
  let userToken: string;
  const stats = async () => {
    const res = await t.request({ method: 'GET', url: '/admin/stats', token: adminToken });
    assert.equal(res.statusCode, 200, res.body);
    return res.json;
  };

  before(async () => {
    t = await createTestApp();
    // Now is 2026-12-31T12:00Z. One user 40 days ago (outside every window), one 8 days ago, one 2 days ago, one an hour ago.
    const first = await createUser(t);
    await createMediaRow(t, first.user.id, { describeStatus: 'pending' });
    await createMediaRow(t, first.user.id, { kind: 'avatar', describeStatus: 'skipped' });
    t.clock.advance(32 * day);
    const second = await createUser(t);
    await createMediaRow(t, second.user.id);
    t.clock.advance(6 * day);
    const third = await createUser(t);
    const follow = await t.request({
      method: 'POST',
      url: `/api/users/me/following/${first.user.id}`,
      token: third.token,
    });
    assert.equal(follow.statusCode, 201, follow.body);
    t.clock.advance(2 * day - hour);
    userToken = (await createUser(t)).token;
    t.clock.advance(hour);
  });
  after(() => t.close());

  it('counts each kind in total and over the last day, week and month, with the backlogs', async () => {
    // An after-commit update that failed and waits for its retry (platform/events/after-commit-retries.ts).
    await t.deps.database.db.execute(
      sql`INSERT INTO after_commit_retries (work, key, filing, attempts, next_attempt_at, last_error, filed_at)
          VALUES ('hashtags.resync', ${randomUUID()}, ${randomUUID()}, 0, now(), 'lock timeout', now())`,
    );
    const document = await stats();
    assert.equal(document.data.type, 'stats');
    const { counts, backlogs, jobs, windows } = document.data.attributes;
    assert.deepEqual(counts.users, { total: 4, day: 1, week: 2, month: 3 });
    // Live sessions: the first user's, unused for 40 days, has expired.
    assert.deepEqual(counts.sessions, { total: 3, day: 1, week: 2, month: 3 });
    assert.deepEqual(counts.media, { total: 2, day: 0, week: 0, month: 1 }, 'posts only');
    assert.deepEqual(counts.follows, { total: 1, day: 0, week: 1, month: 1 });
    const { notifications } = counts;
    assert.ok(notifications.total >= 1, 'the follow was announced');
    assert.deepEqual(notifications, {
      total: notifications.total,
      day: 0,
      week: notifications.total,
      month: notifications.total,
    });
    assert.deepEqual(counts.reactions, { total: 0, day: 0, week: 0, month: 0 });
    assert.deepEqual(counts.bookmarks, { total: 0, day: 0, week: 0, month: 0 });
    assert.deepEqual(backlogs, {
      'events.retriesWaiting': 1,
      'media.describePending': 1,
      'notifications.pushWaiting': notifications.total,
    });
    assert.equal(jobs, null, 'this instance does not run the job queue');
    assert.deepEqual(windows, {
      day: '2026-12-30T12:00:00.000+00:00',
      week: '2026-12-24T12:00:00.000+00:00',
      month: '2026-12-01T12:00:00.000+00:00',
    });
    assert.deepEqual(document.meta, { computedAt: '2026-12-31T12:00:00.000+00:00', keptSeconds: 45 });
  });

  it('keeps the snapshot 45 seconds, then computes it anew', async () => {
    await createUser(t);
    t.clock.advance(44_000);
    const kept = await stats();
    assert.equal(kept.data.attributes.counts.users.total, 4);
    assert.equal(kept.meta.computedAt, '2026-12-31T12:00:00.000+00:00');
    t.clock.advance(1_000);
    const fresh = await stats();
    assert.equal(fresh.data.attributes.counts.users.total, 5);
    assert.equal(fresh.meta.computedAt, '2026-12-31T12:00:45.000+00:00');
  });

  it('POST /admin/jobs/flush/stats computes it now and keeps that snapshot', async () => {
    await createUser(t);
    t.clock.advance(1_000);
    const flush = await t.request({ method: 'POST', url: '/admin/jobs/flush/stats', token: adminToken });
    assert.equal(flush.statusCode, 200);
    assert.equal(flush.json.data.attributes.ran, true);
    assert.equal(flush.json.data.attributes.report.counts.users.total, 6);
    assert.equal(flush.json.data.attributes.report.computedAt, '2026-12-31T12:00:46.000+00:00');
    const after = await stats();
    assert.equal(after.data.attributes.counts.users.total, 6);
    assert.equal(after.meta.computedAt, '2026-12-31T12:00:46.000+00:00');
  });

  it("shows a provider's own figures next to its counts (as reports add open ones)", async () => {
    t.services.platform.stats.register('probe', async (since) => ({
      total: 3,
      day: since.day < since.now ? 1 : 0,
      week: 2,
      month: 3,
      open: 1,
    }));
    t.clock.advance(45_000);
    const document = await stats();
    assert.deepEqual(document.data.attributes.counts.probe, { total: 3, day: 1, week: 2, month: 3, open: 1 });
  });

  it('reports queued and active jobs per job name once this instance runs the queue', async () => {
    const { jobs } = t.services.platform;
    await jobs.start({ pollingIntervalSeconds: 0.5, cronIntervalSeconds: 1 });
    try {
      t.clock.advance(60_000);
      const document = await stats();
      const depths = document.data.attributes.jobs;
      assert.deepEqual(Object.keys(depths).sort(), [...jobs.names()].sort());
      for (const depth of Object.values(depths) as Array<{ queued: number; active: number }>) {
        assert.ok(Number.isInteger(depth.queued) && Number.isInteger(depth.active));
      }
    } finally {
      await jobs.stop();
    }
  });

  it('refuses a user token and no token with 401', async () => {
    for (const token of [userToken, '']) {
      const res = await t.request({ method: 'GET', url: '/admin/stats', ...(token ? { token } : {}) });
      assert.equal(res.statusCode, 401);
    }
  });
});
