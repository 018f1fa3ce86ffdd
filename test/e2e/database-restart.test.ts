/**
 * PostgreSQL restarted, and every connection killed, under a steady mix of writes from two instances
 * of the real server (`node src/main.ts`) on a cluster of the test's own: both instances live through
 * it and serve again without a restart of theirs, every request of the outage is answered (its write
 * done, or 503 with Retry-After), and every acknowledged write is found afterwards, none twice.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { testEngine } from '../helpers/database.ts';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from '../helpers/private-postgres.ts';
import { freePort, waitForPing } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait-for.ts';

const root = new URL('../../', import.meta.url).pathname;
const skip =
  testEngine() !== 'postgres' ? 'a PostgreSQL restart needs the PostgreSQL engine' : privatePostgresUnavailable();

interface Instance {
  base: string;
  child: ChildProcess;
  output: string[];
}

interface Writer {
  token: string;
  acknowledged: Set<string>;
  attempted: Set<string>;
  next: number;
}

/** Writes refused during an outage, by status; anything but 201 and 503 is a failure of the test. */
const refusals = new Map<number, number>();
const unexpected: string[] = [];

async function startInstance(databaseUrl: string, dataDir: string): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: 'development',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: '',
      SMTP_URL: '',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  // The first start loads the geography reference data into the new cluster: minutes on a busy machine.
  await waitForPing(base, child, 300_000).catch((error: Error) => {
    throw new Error(`${error.message}:\n${output.join('')}`);
  });
  return { base, child, output };
}

/** One write: a bookmark collection with a name of its own, so each acknowledged write can be found. */
async function write(instance: Instance, writer: Writer): Promise<void> {
  const name = `w-${writer.next++}`;
  writer.attempted.add(name);
  let response: Response;
  try {
    response = await fetch(`${instance.base}/api/users/me/bookmarks/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
      // Only ends a request that would otherwise hang (the server must answer, not keep it waiting).
      signal: AbortSignal.timeout(20_000),
    });
  } catch (error) {
    unexpected.push(`${name}: no answer (${(error as Error).message})`);
    return;
  }
  const body = await response.text();
  if (response.status === 201) {
    writer.acknowledged.add(name);
    return;
  }
  refusals.set(response.status, (refusals.get(response.status) ?? 0) + 1);
  if (response.status !== 503) unexpected.push(`${name}: ${response.status} ${body.slice(0, 300)}`);
  else if (!/^\d+$/.test(response.headers.get('retry-after') ?? ''))
    unexpected.push(`${name}: 503 without Retry-After`);
}

describe('PostgreSQL restarted under writes from two instances', { skip: skip ?? false }, () => {
  let cluster: PrivatePostgres;
  const instances: Instance[] = [];
  const writers: Writer[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-db-restart-'));
  /** The instances in turn: the nth request goes to instance n mod 2. */
  const instanceFor = (n: number): Instance => {
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
      const response = await fetch(`${instanceFor(i).base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `writer${i}@example.test`, password: 'a long enough password 1' }),
      });
      assert.equal(response.status, 201, await response.clone().text());
      const { data } = (await response.json()) as { data: { attributes: { accessToken: string } } };
      writers.push({ token: data.attributes.accessToken, acknowledged: new Set(), attempted: new Set(), next: 0 });
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
    const logs = instances.map(({ output }, index) => `instance ${index}:\n${output.join('').slice(-2000)}`);
    return [`${unexpected.length} unexpected:`, ...unexpected.slice(0, 5), ...logs].join('\n');
  }

  async function assertAlive(): Promise<void> {
    for (const { child, output } of instances) {
      assert.equal(child.exitCode, null, `an instance exited:\n${output.join('').slice(-3000)}`);
    }
  }

  it('serves writes through both instances before anything fails', async () => {
    await bothServe(2);
    assert.equal(unexpected.length, 0, problems());
  });

  /** Writes go on through both instances while `fault` runs, then both must serve again. */
  async function livesThrough(fault: () => Promise<void>): Promise<void> {
    let done = false;
    const acknowledgedBefore = writers.map((writer) => writer.acknowledged.size);
    const faulting = (async () => {
      // The fault strikes once every writer is writing: each had a write acknowledged, the next is in flight.
      await waitFor('writes under way', () =>
        writers.every((writer, index) => writer.acknowledged.size > (acknowledgedBefore[index] ?? 0)),
      );
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
      const response = await fetch(`${instanceFor(index).base}/api/users/me/bookmarks/collections?limit=100`, {
        headers: { authorization: `Bearer ${writer.token}` },
      });
      assert.equal(response.status, 200);
      const { data } = (await response.json()) as { data: { attributes: { name: string } }[] };
      const found = data.map((item) => item.attributes.name);
      assert.equal(new Set(found).size, found.length, 'a write was done twice');
      for (const name of writer.acknowledged) assert.ok(found.includes(name), `acknowledged ${name} was lost`);
      // A write whose answer was lost with its connection may have committed; nothing else appears.
      for (const name of found) assert.ok(writer.attempted.has(name), `${name} was never written`);
    }
  });
});
