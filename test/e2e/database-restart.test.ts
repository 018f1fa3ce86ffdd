/**
 * PostgreSQL restarted, and every connection killed, under a steady mix of writes from two instances
 * of the real server (`node src/main.ts`) on a cluster of the test's own: both instances live through
 * it and serve again without a restart of theirs, every request of the outage is answered (its write
 * done, or 503 with Retry-After), and every acknowledged write is found afterwards, none twice.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { Writer } from '../helpers/acknowledged-writes.ts';
import { testEngine } from '../helpers/database.ts';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from '../helpers/private-postgres.ts';
import { registerThrough, type ServerProcess, startServer } from '../helpers/server-process.ts';

const skip =
  testEngine() !== 'postgres' ? 'a PostgreSQL restart needs the PostgreSQL engine' : privatePostgresUnavailable();

/** Writes refused during an outage, by status; anything but 201 and 503 is a failure of the test. */
const refusals = new Map<number, number>();
const unexpected: string[] = [];

function startInstance(databaseUrl: string, dataDir: string): Promise<ServerProcess> {
  // The first start loads the geography reference data into the new cluster: minutes on a busy machine.
  return startServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, RATE_LIMITS: 'off' }, 300_000);
}

/** One write; an answer other than 201, or 503 with Retry-After, is noted as unexpected. */
async function write(instance: ServerProcess, writer: Writer): Promise<void> {
  const outcome = await writer.write(instance.base);
  if (outcome.kind === 'acknowledged') return;
  if (outcome.kind === 'unanswered') {
    unexpected.push(`no answer (${outcome.reason})`);
    return;
  }
  refusals.set(outcome.status, (refusals.get(outcome.status) ?? 0) + 1);
  if (outcome.status !== 503) unexpected.push(`${outcome.status} ${outcome.body}`);
  else if (!/^\d+$/.test(outcome.retryAfter ?? '')) unexpected.push('503 without Retry-After');
}

describe('PostgreSQL restarted under writes from two instances', { skip: skip ?? false }, () => {
  let cluster: PrivatePostgres;
  const instances: ServerProcess[] = [];
  const writers: Writer[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-db-restart-'));
  /** The instances in turn: the nth request goes to instance n mod 2. */
  const instanceFor = (n: number): ServerProcess => {
    const instance = instances[n % instances.length];
    assert.ok(instance, 'the instances are started');
    return instance;
  };

  before(async () => {
    cluster = await startPrivatePostgres();
    // One after the other: the first creates the schema, the second finds it done.
    instances.push(await startInstance(cluster.url, join(dataDir, 'a')));
    instances.push(await startInstance(cluster.url, join(dataDir, 'b')));
    for (let i = 0; i < 4; i++) {
      writers.push(new Writer((await registerThrough(instanceFor(i), `writer${i}@example.test`)).token));
    }
  });

  after(async () => {
    for (const { child } of instances) if (child.exitCode === null) child.kill('SIGKILL');
    await cluster?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every writer writes through both instances in turn until `done()`, or its budget is spent. */
  async function writeUntil(done: () => boolean, budget: number): Promise<void> {
    await Promise.all(
      writers.map(async (writer, index) => {
        for (let round = 0; round < budget && !done(); round++) {
          await write(instanceFor(index + round), writer);
        }
      }),
    );
  }

  /** Writes `count` more acknowledged through each instance: they serve again. */
  async function bothServe(count: number): Promise<void> {
    const before = writers.map((writer) => writer.acknowledged.size);
    const enough = () => writers.every((writer, index) => writer.acknowledged.size - (before[index] ?? 0) >= count);
    // The budget is generous (every write of an outage may be refused), yet keeps each writer under
    // the 100 collections a user may have.
    await writeUntil(enough, 30);
    assert.ok(enough(), `the instances did not serve again: ${JSON.stringify([...refusals])} ${problems()}`);
  }

  /** The first unexpected answers, and the end of each instance's log. */
  function problems(): string {
    const logs = instances.map((instance, index) => `instance ${index}:\n${instance.log(2000)}`);
    return [`${unexpected.length} unexpected:`, ...unexpected.slice(0, 5), ...logs].join('\n');
  }

  async function assertAlive(): Promise<void> {
    for (const instance of instances) {
      assert.equal(instance.child.exitCode, null, `an instance exited:\n${instance.log()}`);
    }
  }

  it('serves writes through both instances before anything fails', async () => {
    await bothServe(2);
    assert.equal(unexpected.length, 0, problems());
  });

  /** Writes go on through both instances while `fault` runs, then both must serve again. */
  async function livesThrough(fault: () => Promise<void>): Promise<void> {
    let done = false;
    const faulting = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 300)); // writes are in flight
      await fault();
      done = true;
    })();
    await writeUntil(() => done, 60);
    await faulting;
    await bothServe(3);
    await assertAlive();
    assert.equal(unexpected.length, 0, problems());
  }

  it('lives through `pg_ctl restart` and serves again by itself', () => livesThrough(() => cluster.restart()));

  it('lives through every connection killed (pg_terminate_backend) and serves again', () =>
    livesThrough(async () => {
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      try {
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = $1',
          ['client backend'],
        );
      } finally {
        await admin.end();
      }
    }));

  it('lost no acknowledged write and did none twice', async (t) => {
    t.diagnostic(`refused during the outages, by status: ${JSON.stringify(Object.fromEntries(refusals))}`);
    for (const [index, writer] of writers.entries()) {
      const { lost, twice, unknown } = writer.check(await writer.found(instanceFor(index).base));
      assert.equal(twice, 0, 'a write was done twice');
      assert.deepEqual(lost, [], 'acknowledged writes were lost');
      // A write whose answer was lost with its connection may have committed; nothing else appears.
      assert.deepEqual(unknown, [], 'writes found that were never attempted');
    }
  });
});
