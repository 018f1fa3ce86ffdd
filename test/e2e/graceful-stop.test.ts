/**
 * The real server (`node src/main.ts`) as a load balancer and Prometheus see it: ready once its
 * queue runs, metrics on their own port only, and at SIGTERM readiness off first (503 while it still
 * serves, for SHUTDOWN_DELAY_SECONDS), then no new connections, a request in flight still answered
 * in full, open notification streams ended, and a clean exit.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/platform/db/database.ts';
import { openTestDatabase, postgresUrlOf, testEngine } from '../helpers/database.ts';
import { openEventStream } from '../helpers/event-stream.ts';
import { copyMigratedDataDirectory } from '../helpers/pglite-test-database.ts';
import { freePort } from '../helpers/processes.ts';
import { parseExposition, sumOf } from '../helpers/prometheus.ts';
import { registerThrough, type ServerProcess, startServer } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const shutdownDelaySeconds = 4;

interface Answer {
  status: number;
  body: string;
}

/** One request on a connection of its own (no keep-alive pool), so each probe is a new connection. */
function get(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { connection: 'close' } }, (res) => collect(res, resolve));
    req.on('error', reject);
    req.end();
  });
}

function collect(res: IncomingMessage, resolve: (answer: Answer) => void) {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    body += chunk;
  });
  res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
}

/**
 * A POST whose headers and first half of body are sent now, the rest when `finish` is called;
 * `connected` once its connection is established.
 */
function startSlowPost(url: string, json: unknown): { connected: Promise<void>; finish(): Promise<Answer> } {
  const body = Buffer.from(JSON.stringify(json));
  const half = Math.floor(body.length / 2);
  let answered: (answer: Answer) => void = () => {};
  let failed: (error: Error) => void = () => {};
  const answer = new Promise<Answer>((resolve, reject) => {
    answered = resolve;
    failed = reject;
  });
  const req = httpRequest(
    url,
    {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), connection: 'close' },
    },
    (res) => collect(res, answered),
  );
  req.on('error', failed);
  req.write(body.subarray(0, half));
  const connected = new Promise<void>((resolve) => req.once('socket', (socket) => socket.once('connect', resolve)));
  return {
    connected,
    finish() {
      req.end(body.subarray(half));
      return answer;
    },
  };
}

describe('graceful stop of the real server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-graceful-stop-'));
  let database: Database | null = null;
  let server: ServerProcess;
  let base: string;
  let metricsBase: string;

  before(async () => {
    if (testEngine() === 'postgres') database = await openTestDatabase();
    else await copyMigratedDataDirectory(join(dataDir, 'db'));
    const metricsPort = await freePort();
    metricsBase = `http://127.0.0.1:${metricsPort}`;
    server = await startServer({
      DATA_DIR: dataDir,
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_DELAY_SECONDS: String(shutdownDelaySeconds),
      DATABASE_URL: database === null ? '' : await postgresUrlOf(database),
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'info',
    });
    base = server.base;
  });

  after(async () => {
    // Not started (a failed start kills its process itself), or stopped by the test: nothing to do.
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers ready once its job queue runs', async () => {
    await waitFor(
      'GET /health/ready to answer 200',
      async () => {
        if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.log()}`);
        return (await get(`${base}/health/ready`).catch(() => null))?.status === 200;
      },
      90_000,
    );
    assert.equal((await get(`${base}/health/live`)).status, 200);
  });

  it('serves its metrics on the metrics port only', async () => {
    assert.equal((await get(`${base}/metrics`)).status, 404);
    const scrape = await get(`${metricsBase}/metrics`);
    assert.equal(scrape.status, 200);
    const series = parseExposition(scrape.body);
    const probes = { method: 'GET', route: '/health/ready', status: '200' };
    assert.ok(sumOf(series, 'tms_http_request_duration_seconds_count', probes) >= 1);
    assert.ok(sumOf(series, 'process_resident_memory_bytes') > 0);
  });

  it('at SIGTERM turns readiness off while it still serves, then drains a request in flight, ends the open streams and exits 0', async () => {
    // A notification stream stays open until the server ends it: it must not hold the stop up.
    const { token } = await registerThrough(server, 'streaming@example.test');
    const stream = await openEventStream(base, { token });
    await stream.next("the stream's first count", (event) => event.event === 'unreadCount');
    const inFlight = startSlowPost(`${base}/api/auth/register`, {
      email: 'draining@example.test',
      password: 'correct horse 42',
      username: 'draining',
    });
    // Connected before the stop: the server reads its headers during the delay, well before it closes.
    await inFlight.connected;
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');

    const notReady = await waitFor('GET /health/ready to answer 503', async () => {
      const answer = await get(`${base}/health/ready`);
      return answer.status === 503 ? answer : null;
    });
    const error = JSON.parse(notReady.body).errors[0];
    assert.equal(error.code, 'notReady');
    assert.equal(error.meta.checks.draining, true);
    assert.equal((await get(`${base}/api/ping`)).status, 200, 'still serving while load balancers take it out');

    // Then it stops accepting connections...
    await waitFor(
      'new connections to be refused',
      async () =>
        get(`${base}/health/live`).then(
          () => false,
          (failure: NodeJS.ErrnoException) => failure.code === 'ECONNREFUSED',
        ),
      (shutdownDelaySeconds + 10) * 1000,
    );
    // ...but the request it had begun is answered in full, by the service itself.
    const answer = await inFlight.finish();
    assert.equal(answer.status, 201, answer.body);
    assert.equal(JSON.parse(answer.body).data.type, 'sessions');

    const [code] = await exited;
    assert.equal(code, 0, server.log());
    assert.equal(stream.ended, true, 'the stream was ended by the server');
    const events = server.output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line).event as string | undefined);
    assert.ok(events.indexOf('server.stopping') < events.indexOf('server.stopped'));
  });
});
