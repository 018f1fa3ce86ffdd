/**
 * Two instances of the real server on one PostgreSQL database and a Redis of the test's own: what
 * an operator does through one instance, or what a client spends through one, the other sees too.
 * Maintenance mode (one row, read every second by each instance), a cache purge (the broadcast), and
 * the rate limits and login lockout (counters in Redis).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Instances, instancesUnavailable, startInstances } from '../helpers/instances.ts';
import { type PrivateRedis, privateRedisUnavailable, startPrivateRedis } from '../helpers/private-redis.ts';
import { registerThrough, type ServerProcess } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const skip = instancesUnavailable() ?? privateRedisUnavailable();

describe('two instances see alike', { skip: skip ?? false }, () => {
  let redis: PrivateRedis;
  let instances: Instances;
  let one: ServerProcess;
  let two: ServerProcess;
  let token = '';

  before(async () => {
    redis = await startPrivateRedis();
    instances = await startInstances([{}, {}], { REDIS_URL: redis.url, LOG_LEVEL: 'info' });
    [one, two] = instances.servers as [ServerProcess, ServerProcess];
    token = (await registerThrough(one, 'alike@example.test')).token;
  });

  after(async () => {
    await instances?.close();
    await redis?.remove();
  });

  const meThrough = (server: ServerProcess) => server.call('GET', '/api/auth/me', { token });

  it('maintenance switched on through one instance closes both; off through the other opens both', async () => {
    const on = await one.call('PUT', '/admin/maintenance', {
      admin: true,
      body: { enabled: true, message: 'Upgrading', retryAfterSeconds: 120 },
    });
    assert.equal(on.status, 200);
    for (const server of [one, two]) {
      const closed = await waitFor('maintenance seen', async () => {
        const answer = await meThrough(server);
        return answer.status === 503 ? answer : null;
      });
      assert.equal(closed.json.errors[0].code, 'maintenance');
      assert.equal(closed.headers.get('retry-after'), '120');
      assert.equal((await server.call('GET', '/api/ping')).status, 200, 'health checks stay open');
    }
    assert.equal((await two.call('PUT', '/admin/maintenance', { admin: true, body: { enabled: false } })).status, 200);
    for (const server of [one, two]) {
      await waitFor('maintenance off', async () => ((await meThrough(server)).status === 200 ? true : null));
    }
  });

  it('a cache purge through one instance empties the other', async () => {
    assert.equal((await meThrough(two)).status, 200, 'a session cached on the other instance');
    const purge = await one.call('POST', '/admin/cache/purge', { admin: true, body: { scope: 'accounts' } });
    assert.equal(purge.status, 200);
    // What the operator sees in the other instance's log: what it held, emptied.
    await waitFor('the other instance purged', () =>
      /"event":"caches.purged","scope":"accounts","purged":\[\{"name":"accounts.sessions","entries":1\}\]/.test(
        two.log(50_000),
      ),
    );
  });

  it('rate limits count requests to both instances together', async () => {
    // POST /api/auth/forgot-password: 5 an hour per (address, IP).
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? one : two;
      statuses.push(
        (await server.call('POST', '/api/auth/forgot-password', { body: { email: 'x@example.test' } })).status,
      );
    }
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
  });

  it('the login lockout counts failures on both instances together', async () => {
    // 10 failures of one account from one IP in 15 minutes refuse the 11th attempt, whatever the password.
    const statuses = [];
    for (let i = 0; i < 11; i++) {
      const server = i % 2 === 0 ? one : two;
      const body = {
        login: 'alike@example.test',
        password: i < 10 ? 'a wrong password 123' : 'a long enough password 1',
      };
      statuses.push((await server.call('POST', '/api/auth/login', { body })).status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
  });
});
