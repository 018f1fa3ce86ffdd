/**
 * GET /metrics as Prometheus scrapes it: over real HTTP on loopback, from the metrics server's own
 * port, with the series an operator watches moving when the matching thing happens.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { testEngine } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { hasSeries, parseExposition, type Series, sumOf } from '../../../test/helpers/prometheus.ts';
import type { Mailer, MailMessage } from '../../adapters/mail/index.ts';
import { backlogReadMs } from './backlog-gauge.ts';
import { type MetricsServer, startMetricsServer } from './metrics-server.ts';

/** A mail server that can be taken down. */
class SwitchableMailer implements Mailer {
  down = false;
  async send(_message: MailMessage) {
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
  }
}

describe('metrics', () => {
  let t: TestApp;
  let server: MetricsServer;
  const mailer = new SwitchableMailer();

  before(async () => {
    // Recorded only by an instance that serves them (METRICS_PORT); the test serves them on a port of its own.
    t = await createTestApp({ deps: { mailer }, env: { METRICS_PORT: '9464' } });
    server = await startMetricsServer(
      t.services.platform.metrics,
      { host: '127.0.0.1', port: 0 },
      pino({ level: 'silent' }),
    );
  });
  after(async () => {
    await server.close();
    await t.services.platform.jobs.stop();
    await t.close();
  });

  const scrape = async (): Promise<Series[]> => {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^text\/plain; version=0\.0\.4/);
    return parseExposition(await res.text());
  };

  it('is not served on the public port, and the metrics port serves nothing else', async () => {
    for (const method of ['GET', 'HEAD'] as const)
      assert.equal((await t.request({ method, url: '/metrics' })).statusCode, 404);
    assert.equal((await fetch(`http://127.0.0.1:${server.port}/`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status, 404);
  });

  it('counts requests by their declared route and status, never by the URL a client sent', async () => {
    const [ana, ben] = [await createUser(t), await createUser(t)];
    const route = { method: 'GET', route: '/api/users/{userId}/badges', status: '200' };
    const before = sumOf(await scrape(), 'tms_http_request_duration_seconds_count', route);
    for (const user of [ana, ben])
      assert.equal((await t.request({ method: 'GET', url: `/api/users/${user.id}/badges` })).statusCode, 200);
    assert.equal(
      (await t.request({ method: 'GET', url: '/no/such/page', headers: { accept: 'application/json' } })).statusCode,
      404,
    );
    const series = await scrape();
    assert.equal(sumOf(series, 'tms_http_request_duration_seconds_count', route), before + 2);
    assert.ok(sumOf(series, 'tms_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }) >= 1);
    const routes = new Set(series.map((one) => one.labels.route).filter((value) => value !== undefined));
    for (const value of routes) assert.ok(!value.includes(ana.id) && !value.includes('/no/such'), value);
    // The duration is a histogram: its buckets and sum are there for latency quantiles.
    assert.ok(hasSeries(series, 'tms_http_request_duration_seconds_bucket', { ...route, le: '+Inf' }));
    assert.ok(hasSeries(series, 'tms_http_request_duration_seconds_sum', route));
  });

  it('counts the session cache hits and misses', async () => {
    const user = await createUser(t);
    const sessions = { cache: 'accounts.sessions' };
    const before = await scrape();
    for (let i = 0; i < 3; i++)
      assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 200);
    const after = await scrape();
    const delta = (result: string) =>
      sumOf(after, 'tms_cache_lookups_total', { ...sessions, result }) -
      sumOf(before, 'tms_cache_lookups_total', { ...sessions, result });
    assert.equal(delta('hit') + delta('miss'), 3);
    assert.ok(delta('hit') >= 2, 'the token is read from the cache once it is there');
  });

  it('counts mails sent and failed, by kind', async () => {
    const sent = async () => sumOf(await scrape(), 'tms_mail_attempts_total', { result: 'sent' });
    const failed = async () => sumOf(await scrape(), 'tms_mail_attempts_total', { result: 'retryLater' });
    const [sentBefore, failedBefore] = [await sent(), await failed()];
    const register = (username: string) =>
      t.request({
        method: 'POST',
        url: '/api/auth/register',
        body: { email: `${username}@example.test`, password: 'correct horse 42', username },
      });
    assert.equal((await register('metricsmailok')).statusCode, 201);
    assert.equal(await sent(), sentBefore + 1);
    mailer.down = true;
    try {
      assert.equal((await register('metricsmaildown')).statusCode, 201);
    } finally {
      mailer.down = false;
    }
    assert.equal(await failed(), failedBefore + 1);
    assert.equal(await sent(), sentBefore + 1);
    const kinds = (await scrape())
      .filter((one) => one.name === 'tms_mail_attempts_total')
      .map((one) => one.labels.kind);
    assert.ok(
      kinds.every((kind) => kind !== undefined && kind !== ''),
      'every mail is counted under its kind',
    );
  });

  it('counts a job run by outcome with its duration, and the pushes it sent', async () => {
    const [actor, recipient] = [await createUser(t), await createUser(t)];
    const run = { job: 'notifications-push', outcome: 'completed' };
    const before = await scrape();
    const follow = await t.request({
      method: 'POST',
      url: `/api/users/me/following/${recipient.id}`,
      token: actor.token,
    });
    assert.equal(follow.statusCode, 201);
    const flush = await t.request({ method: 'POST', url: '/admin/jobs/flush/notifications-push', token: adminToken });
    assert.equal(flush.statusCode, 200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      sumOf(after, name, labels) - sumOf(before, name, labels);
    assert.equal(delta('tms_job_run_duration_seconds_count', run), 1);
    assert.ok(hasSeries(after, 'tms_job_run_duration_seconds_sum', run));
    assert.equal(delta('tms_push_attempts_total', { result: 'sent' }), 1);
  });

  it('reports the render queue, the process (memory, event-loop lag) and, on PostgreSQL, the pool', async () => {
    const series = await scrape();
    assert.equal(sumOf(series, 'tms_media_renders', { state: 'queued' }), 0);
    assert.ok(hasSeries(series, 'tms_media_renders', { state: 'running' }));
    assert.ok(sumOf(series, 'process_resident_memory_bytes') > 0);
    assert.ok(hasSeries(series, 'nodejs_heap_size_used_bytes'));
    assert.ok(hasSeries(series, 'nodejs_eventloop_lag_seconds'));
    assert.ok(hasSeries(series, 'nodejs_eventloop_lag_p99_seconds'));
    if (testEngine() === 'postgres') {
      assert.ok(hasSeries(series, 'tms_db_pool_connections', { state: 'inUse' }));
      assert.ok(sumOf(series, 'tms_db_pool_connections') >= 1, 'the pool holds the connections the requests used');
      assert.equal(sumOf(series, 'tms_db_pool_waiting'), 0);
    } else assert.ok(!hasSeries(series, 'tms_db_pool_connections'), 'PGlite has no pool');
  });

  it('reports each backlog of GET /admin/stats as it is at the scrape', async () => {
    const backlog = (series: Series[], name: string) => sumOf(series, 'tms_backlog_items', { backlog: name });
    const before = await scrape();
    for (const name of ['events.retriesWaiting', 'media.describePending', 'notifications.pushWaiting'])
      assert.ok(hasSeries(before, 'tms_backlog_items', { backlog: name }), name);
    // An after-commit update that failed and waits for its retry (platform/events/after-commit-retries.ts).
    await t.deps.database.db.execute(
      sql`INSERT INTO after_commit_retries (work, key, filing, attempts, next_attempt_at, last_error, filed_at)
          VALUES ('hashtags.resync', ${randomUUID()}, ${randomUUID()}, 0, now(), 'lock timeout', now())`,
    );
    assert.equal(backlog(await scrape(), 'events.retriesWaiting'), backlog(before, 'events.retriesWaiting') + 1);
  });

  it('reports each job queue depth once the queue runs in this process', async () => {
    assert.ok(!hasSeries(await scrape(), 'tms_job_queue_jobs'), 'no queue runs here yet');
    await t.services.platform.jobs.start({ retryDelaySeconds: 1, pollingIntervalSeconds: 0.5, cronIntervalSeconds: 1 });
    const series = await scrape();
    for (const job of ['mail-outbox', 'notifications-push'])
      for (const state of ['queued', 'active'])
        assert.ok(hasSeries(series, 'tms_job_queue_jobs', { job, state }), `${job} ${state}`);
  });

  it('leaves out a backlog that cannot be read, and reports the others', async () => {
    t.services.platform.stats.registerBacklog('test.broken', async () => {
      throw new Error('relation "broken" does not exist');
    });
    const series = await scrape();
    assert.ok(!hasSeries(series, 'tms_backlog_items', { backlog: 'test.broken' }));
    assert.ok(hasSeries(series, 'tms_backlog_items', { backlog: 'events.retriesWaiting' }));
    assert.ok(hasSeries(series, 'tms_backlog_items', { backlog: 'notifications.pushWaiting' }));
  });

  // Last: the stalled backlog stays registered.
  it('answers without the backlogs when they cannot be read in time, and the next scrape joins the read still running', async () => {
    let reads = 0;
    t.services.platform.stats.registerBacklog('test.stalled', () => {
      reads += 1;
      return new Promise<number>(() => {});
    });
    for (const scrapeNumber of [1, 2]) {
      const started = Date.now();
      const series = await scrape();
      assert.ok(Date.now() - started >= backlogReadMs, 'the scrape waited for the backlogs');
      assert.ok(!hasSeries(series, 'tms_backlog_items'), 'no backlog of a read left unfinished');
      assert.ok(sumOf(series, 'process_resident_memory_bytes') > 0, 'the rest of the scrape is there');
      assert.ok(hasSeries(series, 'tms_media_renders', { state: 'running' }));
      assert.equal(reads, 1, `scrape ${scrapeNumber} joined the read still running`);
    }
  });
});
