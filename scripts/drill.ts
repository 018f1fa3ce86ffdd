/**
 * npm run drill: the fault drill of docs/operations.md (When a part fails). In its own processes and
 * on loopback only: a PostgreSQL cluster and a Redis of its own (never the shared ones), two instances
 * of the real server on them, and a steady load of writes from a dozen clients through both instances
 * in turn. PostgreSQL is restarted (`pg_ctl restart -m fast`), then Redis is stopped and started
 * again (empty). It prints the writes acknowledged, the acknowledged writes found afterwards (they
 * must be equal), what the clients met during each fault, and the seconds until both instances
 * acknowledged writes again. Exit status 0 when nothing acknowledged was lost, nothing was done twice
 * and every answer was a success or a 503 with Retry-After; 1 otherwise; 2 past its time bound.
 *
 *   npm run drill                       # about 30 s on 2 cores
 *   DRILL_TIMEOUT_SECONDS=900 npm run drill
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type WriteOutcome, Writer, writesPerWriter } from '../test/helpers/acknowledged-writes.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../test/helpers/private-postgres.ts';
import { type PrivateRedis, startPrivateRedis } from '../test/helpers/private-redis.ts';
import { registerThrough, type ServerProcess, startServer } from '../test/helpers/server-process.ts';

const timeoutSeconds = Number(process.env.DRILL_TIMEOUT_SECONDS ?? 600);
const clients = 12;
/** Each client writes about four times a second: some 50 writes a second in all. */
const paceMs = 250;
/** Steady load before, between and after the faults. */
const steadyMs = 3000;

interface Event {
  at: number;
  instance: number;
  outcome: WriteOutcome;
}

const events: Event[] = [];
const servers: ServerProcess[] = [];
let cluster: PrivatePostgres | null = null;
let redis: PrivateRedis | null = null;
const dataDir = mkdtempSync(join(tmpdir(), 'tms-drill-'));

async function cleanUp(): Promise<void> {
  await Promise.allSettled(servers.map((server) => server.stop()));
  await Promise.allSettled([cluster?.remove(), redis?.remove()]);
  rmSync(dataDir, { recursive: true, force: true });
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Runs `action` under the load and measures until both instances acknowledge writes again. */
async function fault(name: string, action: () => Promise<void>) {
  const started = Date.now();
  await action();
  const done = Date.now();
  const recoveredAt: number[] = [];
  for (const instance of servers.keys()) {
    for (;;) {
      const ok = events.find((e) => e.instance === instance && e.at >= done && e.outcome.kind === 'acknowledged');
      if (ok !== undefined) {
        recoveredAt.push(ok.at);
        break;
      }
      if (Date.now() - done > 120_000) throw new Error(`instance ${instance} did not serve again after the ${name}`);
      await sleep(100);
    }
  }
  const until = Math.max(...recoveredAt);
  const during = events.filter((e) => e.at >= started && e.at <= until);
  const refused = during.filter((e) => e.outcome.kind === 'refused').length;
  const unanswered = during.filter((e) => e.outcome.kind === 'unanswered').length;
  out(
    `${name}: ${during.length} writes meanwhile, ${refused} refused (503), ${unanswered} unanswered; ` +
      `both instances acknowledged writes again ${((until - started) / 1000).toFixed(1)} s after it began`,
  );
}

async function main(): Promise<number> {
  out('starting a PostgreSQL cluster and a Redis of the drill’s own');
  const postgres = await startPrivatePostgres();
  cluster = postgres;
  const privateRedis = await startPrivateRedis();
  redis = privateRedis;
  out(
    'starting two instances (the first start on a new cluster loads the reference data: seconds, a minute on a busy machine)',
  );
  const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: privateRedis.url,
    // Each client has an address of its own (X-Forwarded-For), so the per-IP limits count it alone.
    TRUST_PROXY: 'true',
  };
  const first = await startServer({ ...env, DATA_DIR: join(dataDir, 'a') }, 600_000);
  servers.push(first);
  const second = await startServer({ ...env, DATA_DIR: join(dataDir, 'b') }, 600_000);
  servers.push(second);
  /** Instance 0 or 1: clients go through both in turn. */
  const instanceAt = (index: number) => (index % 2 === 0 ? first : second);
  const writers: Writer[] = [];
  for (let i = 0; i < clients; i++) {
    const headers = { 'x-forwarded-for': `10.0.0.${i + 1}` };
    const { token } = await registerThrough(instanceAt(i), `drill${i}@example.test`, headers);
    writers.push(new Writer(token, headers));
  }

  out(`load: ${clients} clients, a write every ${paceMs} ms each, through both instances in turn`);
  let stop = false;
  const load = Promise.all(
    writers.map(async (writer, index) => {
      for (let round = 0; !stop && writer.spent < writesPerWriter; round++) {
        const instance = (index + round) % 2;
        const outcome = await writer.write(instanceAt(instance).base);
        events.push({ at: Date.now(), instance, outcome });
        await sleep(paceMs);
      }
    }),
  );
  await sleep(steadyMs);
  await fault('PostgreSQL restart', () => postgres.restart());
  await sleep(steadyMs);
  await fault('Redis restart', async () => {
    await privateRedis.stop();
    await sleep(2000);
    await privateRedis.start();
  });
  await sleep(steadyMs);
  stop = true;
  await load;

  let acknowledged = 0;
  let foundAcknowledged = 0;
  let extra = 0;
  const problems: string[] = [];
  for (const [index, writer] of writers.entries()) {
    const found = await writer.found(instanceAt(index).base);
    const { lost, twice, unknown } = writer.check(found);
    acknowledged += writer.acknowledged.size;
    foundAcknowledged += writer.acknowledged.size - lost.length;
    extra += found.filter((name) => !writer.acknowledged.has(name)).length;
    if (lost.length > 0) problems.push(`client ${index}: acknowledged but not found: ${lost.join(', ')}`);
    if (twice > 0) problems.push(`client ${index}: ${twice} writes found twice`);
    if (unknown.length > 0) problems.push(`client ${index}: found but never written: ${unknown.join(', ')}`);
  }
  for (const { outcome } of events) {
    if (outcome.kind === 'unanswered') problems.push(`a request got no answer: ${outcome.reason}`);
    else if (outcome.kind === 'refused' && (outcome.status !== 503 || !/^\d+$/.test(outcome.retryAfter ?? '')))
      problems.push(`answered ${outcome.status} (Retry-After ${outcome.retryAfter}): ${outcome.body}`);
  }
  out(`writes acknowledged: ${acknowledged}`);
  out(`acknowledged writes found afterwards: ${foundAcknowledged}`);
  out(`writes found whose answer was not a success (committed as their connection broke): ${extra}`);
  for (const problem of problems.slice(0, 20)) out(`PROBLEM ${problem}`);
  const ok = problems.length === 0 && acknowledged === foundAcknowledged;
  out(ok ? 'drill passed' : 'drill FAILED');
  return ok ? 0 : 1;
}

const bound = setTimeout(() => {
  out(`drill FAILED: not done within ${timeoutSeconds} s (DRILL_TIMEOUT_SECONDS)`);
  void cleanUp().finally(() => process.exit(2));
}, timeoutSeconds * 1000);

main()
  .catch((error: Error) => {
    out(`drill FAILED: ${error.message}`);
    for (const [index, server] of servers.entries()) out(`instance ${index}:\n${server.log(2000)}`);
    return 1;
  })
  .then(async (status) => {
    clearTimeout(bound);
    await cleanUp();
    process.exit(status);
  });
