/**
 * The read replica (DATABASE_REPLICA_URL) on a private primary cluster and a streaming standby made
 * from it with pg_basebackup, both on loopback ports of the test's own. What reaches which server is
 * counted on the pools: every statement the replica's pool is handed goes to the standby (a left-out
 * replica's reads never reach its pool). Nothing here asserts how long anything took: the test waits
 * on the replica's state as the lag probe sets it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { LocalBroadcast } from '../../src/adapters/broadcast/index.ts';
import { openPostgres, type PostgresDatabase } from '../../src/platform/db/postgres-database.ts';
import { Replica } from '../../src/platform/db/replica.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { postgresTemplateUrl, testEngine } from '../helpers/database.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import {
  copyDatabaseInto,
  type PrivatePostgres,
  privatePostgresUnavailable,
  startPrivatePostgres,
  startPrivateStandby,
} from '../helpers/private-postgres.ts';
import { waitFor } from '../helpers/wait-for.ts';

const skip =
  testEngine() !== 'postgres'
    ? 'a read replica is a PostgreSQL standby: PGlite has none (DATABASE_REPLICA_URL is ignored there)'
    : privatePostgresUnavailable();

/** The lag bound of the test, in ms: also the read-your-writes window. */
const maxLagMs = 1000;

describe('read replica: public reads from a streaming standby', { skip: skip ?? false }, () => {
  let primary: PrivatePostgres;
  let standby: PrivatePostgres;
  let database: PostgresDatabase;
  let replica: Replica;
  let t: TestApp;
  let other: TestApp;
  let admin: pg.Client;
  const logged: { level: 'info' | 'warn'; event: string }[] = [];
  const count = { replica: 0, primary: 0 };
  let ada: TestUser;
  let bob: TestUser;

  before(async () => {
    const template = await postgresTemplateUrl();
    primary = await startPrivatePostgres();
    await copyDatabaseInto(template, primary);
    standby = await startPrivateStandby(primary);
    const event = (object: object) => ('event' in object ? String(object.event) : '');
    database = openPostgres(primary.url, 5, primary.url, {
      url: standby.url,
      maxLagMs,
      probeIntervalMs: 100,
      logger: {
        info: (object) => logged.push({ level: 'info', event: event(object) }),
        warn: (object) => logged.push({ level: 'warn', event: event(object) }),
      },
    });
    assert.ok(database.replica);
    replica = database.replica;
    replica.pool.on('acquire', () => count.replica++);
    database.pool.on('acquire', () => count.primary++);
    // Two instances on the same servers, told of each other's writers through one broadcast.
    const broadcast = new LocalBroadcast();
    t = await createTestApp({ database, deps: { broadcast } });
    other = await createTestApp({ database, deps: { broadcast }, clock: t.clock });
    admin = new pg.Client({ connectionString: standby.url });
    await admin.connect();
    ada = await createUser(t);
    bob = await createUser(t);
    await waitFor('the replica in use', () => replica.inUse);
  });

  after(async () => {
    await admin?.end().catch(() => {});
    await other?.close();
    await t?.close();
    await database?.close();
    await standby?.remove();
    await primary?.remove();
  });

  /** The replica's statements during fn. */
  async function onReplica(fn: () => Promise<unknown>): Promise<number> {
    const before = count.replica;
    await fn();
    return count.replica - before;
  }

  const followersOf = (user: TestUser, app: TestApp = t, token?: string) =>
    app.request({ method: 'GET', url: `/api/users/${user.id}/followers`, token });

  const followerIds = (response: { json: any }): string[] =>
    (response.json.data as { id: string }[]).map((row) => row.id);

  it('answers a routed public read from the replica, and other reads from the primary', async () => {
    await waitFor(
      'the users replayed',
      async () => (await admin.query('SELECT 1 FROM users WHERE id = $1', [bob.id])).rowCount,
    );
    assert.ok((await onReplica(() => followersOf(bob).then((r) => assert.equal(r.statusCode, 200)))) > 0);
    assert.ok((await onReplica(() => t.request({ method: 'GET', url: '/api/regions' }))) > 0);
    // Not marked replica-safe: a viewer's own list.
    assert.equal(
      await onReplica(() => t.request({ method: 'GET', url: '/api/users/me/following', token: ada.token })),
      0,
    );
    // Never outside a request: services called by jobs or the CLI read from the primary.
    assert.equal(await onReplica(() => t.services.areas.follows.follows.counts(bob.id)), 0);
    // In a request's context: from the replica, until a transaction of the request has committed.
    const counts = () => t.services.areas.follows.follows.counts(bob.id);
    assert.ok((await onReplica(() => replica.allowIn(counts))) > 0);
    const transactions = t.services.platform.transactions;
    assert.equal(await onReplica(() => replica.allowIn(() => transactions.run(counts))), 0, 'inside a transaction');
    const afterCommit = () =>
      replica.allowIn(async () => {
        await transactions.run(async () => {});
        return counts();
      });
    assert.equal(await onReplica(afterCommit), 0, 'after a commit');
  });

  it('sends a writer to the primary for the window after their write, on every instance', async () => {
    const follow = await t.request({ method: 'POST', url: `/api/users/me/following/${bob.id}`, token: ada.token });
    assert.equal(follow.statusCode, 201);
    for (const app of [t, other]) {
      let response: { json: any } | undefined;
      assert.equal(await onReplica(async () => (response = await followersOf(bob, app, ada.token))), 0);
      assert.ok(response && followerIds(response).includes(ada.id), 'the writer sees their write');
    }
    // Anyone else may read from the replica meanwhile (a public list: with a token, a follow list reads
    // the viewer's blocks, which stay on the primary).
    const regionsAs = (app: TestApp, token: string) => app.request({ method: 'GET', url: '/api/regions', token });
    assert.ok((await onReplica(() => followersOf(bob))) > 0);
    assert.ok((await onReplica(() => regionsAs(t, bob.token))) > 0);
    assert.equal(await onReplica(() => followersOf(bob, t, bob.token)), 0, "a viewer's blocks: the primary");
    // Once the window has passed, the writer reads from the replica again.
    t.clock.advance(maxLagMs + 1);
    assert.ok((await onReplica(() => regionsAs(other, ada.token))) > 0);
  });

  it('leaves the replica out while its replay is paused past the bound, and takes it back', async () => {
    const carol = await createUser(t);
    await admin.query('SELECT pg_wal_replay_pause()');
    try {
      const follow = await t.request({ method: 'POST', url: `/api/users/me/following/${bob.id}`, token: carol.token });
      assert.equal(follow.statusCode, 201);
      await waitFor('the replica left out', () => !replica.inUse);
      let response: { json: any } | undefined;
      assert.equal(await onReplica(async () => (response = await followersOf(bob))), 0);
      assert.ok(response && followerIds(response).includes(carol.id), 'the primary answered');
    } finally {
      await admin.query('SELECT pg_wal_replay_resume()');
    }
    await waitFor('the replica in use again', () => replica.inUse);
    let response: { json: any } | undefined;
    assert.ok((await onReplica(async () => (response = await followersOf(bob)))) > 0);
    assert.ok(response && followerIds(response).includes(carol.id), 'the replica caught up');
    const switches = logged.filter(({ event }) => event.startsWith('db.replica')).map(({ event }) => event);
    assert.deepEqual(switches.slice(-3), ['db.replicaInUse', 'db.replicaLeftOut', 'db.replicaInUse']);
  });

  it('serves from the primary, without an error, while the standby is stopped', async () => {
    await admin.end();
    // A replica whose probe will not run again before the standby stops: its next read meets it stopped.
    const quiet = { info: () => {}, warn: () => {} };
    const unprobed = new Replica(standby.url, primary.url, database.pool, {
      maxLagMs,
      poolSize: 1,
      logger: quiet,
      probeIntervalMs: 3_600_000,
    });
    const inRecovery = async () =>
      ((await unprobed.pool.query('SELECT pg_is_in_recovery() AS standby')).rows[0] as { standby: boolean }).standby;
    try {
      await unprobed.start();
      assert.ok(unprobed.inUse);
      assert.equal(await inRecovery(), true, 'answered by the standby');
      await standby.stop();
      assert.equal(await inRecovery(), false, 'answered by the primary, without an error');
      assert.equal(unprobed.inUse, false);
    } finally {
      await unprobed.close();
    }
    // Before the probe notices, a read that meets the stopped replica runs again on the primary.
    for (let i = 0; i < 3; i++) {
      const response = await followersOf(bob);
      assert.equal(response.statusCode, 200);
      assert.ok(followerIds(response).includes(ada.id));
    }
    await waitFor('the replica left out', () => !replica.inUse);
    assert.equal(await onReplica(() => followersOf(bob).then((r) => assert.equal(r.statusCode, 200))), 0);
    assert.equal(logged.filter(({ event }) => event === 'db.replicaLeftOut').length, 2, 'logged once per outage');
    await standby.start();
    await waitFor('the replica in use again', () => replica.inUse, 30_000);
    assert.ok((await onReplica(() => followersOf(bob))) > 0);
  });
});
