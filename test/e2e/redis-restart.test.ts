/**
 * Redis stopped, then started again (empty), under two instances of the real server on one
 * PostgreSQL database and a Redis of the test's own. What each use of Redis does meanwhile
 * (docs/operations.md, When Redis stops):
 * - requests are served as usual: nothing waits for Redis, nothing answers 500 because of it;
 * - rate limits fall back to each instance's memory: they still hold, per instance;
 * - session revocation never fails open: a revoked token is refused at once by the instance that
 *   revoked it, by the others within their session cache's bound (SESSION_CACHE_SECONDS), and by
 *   every instance as soon as Redis is back (a reconnected subscriber drops its cached sessions);
 * - a cache purge sent meanwhile reaches the other instances when Redis is back (same reason).
 * The two instances differ only in their session cache's lifetime: `lasting` keeps sessions 300 s
 * (so what it refuses once Redis is back, it refuses because Redis came back), `brief` 2 s (so it
 * shows the bound while Redis is still down).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Instances, instancesUnavailable, startInstances } from '../helpers/instances.ts';
import { type PrivateRedis, privateRedisUnavailable, startPrivateRedis } from '../helpers/private-redis.ts';
import { registerThrough, type ServerProcess } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const skip = instancesUnavailable() ?? privateRedisUnavailable();

describe('Redis stopped and started under two instances', { skip: skip ?? false }, () => {
  let redis: PrivateRedis;
  let instances: Instances;
  let lasting: ServerProcess;
  let brief: ServerProcess;
  /** Signed in before the outage; each is revoked during it. */
  const tokens = { revokedOnLasting: '', revokedOnBrief: '', kept: '' };

  before(async () => {
    redis = await startPrivateRedis();
    instances = await startInstances([{ SESSION_CACHE_SECONDS: '300' }, { SESSION_CACHE_SECONDS: '2' }], {
      REDIS_URL: redis.url,
      LOG_LEVEL: 'info',
    });
    [lasting, brief] = instances.servers as [ServerProcess, ServerProcess];
    tokens.revokedOnLasting = (await registerThrough(lasting, 'one@example.test')).token;
    tokens.revokedOnBrief = (await registerThrough(brief, 'two@example.test')).token;
    tokens.kept = (await registerThrough(lasting, 'three@example.test')).token;
  });

  after(async () => {
    await instances?.close();
    await redis?.remove();
  });

  const me = (server: ServerProcess, token: string) =>
    server.call('GET', '/api/auth/me', { token }).then((answer) => answer.status);
  const forgotPassword = (server: ServerProcess, email: string) =>
    server.call('POST', '/api/auth/forgot-password', { body: { email } }).then((answer) => answer.status);

  it('serves as usual while Redis is down, with rate limits counted on each instance', async () => {
    // Sessions cached on the instance that does not revoke them, and a statistics snapshot to purge.
    assert.equal(await me(brief, tokens.revokedOnLasting), 200);
    assert.equal(await me(lasting, tokens.revokedOnBrief), 200);
    assert.equal((await lasting.call('GET', '/admin/stats', { admin: true })).status, 200);
    await redis.stop();

    for (const server of [lasting, brief]) assert.equal(await me(server, tokens.kept), 200, instances.logs());
    // 5 an hour per (address, IP): the sixth on one instance is refused, counted in its memory.
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await forgotPassword(lasting, 'outage@example.test'));
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
    assert.match(lasting.log(20_000), /rateLimits\.redisUnavailable/, 'the operator is told');
  });

  it('refuses a token revoked while Redis is down: at once where revoked, within the cache bound elsewhere', async () => {
    assert.equal((await lasting.call('POST', '/api/auth/logout', { token: tokens.revokedOnLasting })).status, 204);
    assert.equal(await me(lasting, tokens.revokedOnLasting), 401, 'refused at once where it was revoked');
    // `brief` cached it before; no message can reach it, its 2 s cache ends it.
    await waitFor('the revoked token refused by the other instance', async () =>
      (await me(brief, tokens.revokedOnLasting)) === 401 ? true : null,
    );

    assert.equal((await brief.call('POST', '/api/auth/logout', { token: tokens.revokedOnBrief })).status, 204);
    assert.equal(await me(brief, tokens.revokedOnBrief), 401);
    // `lasting` keeps its copy for up to 300 s while it cannot hear the revocation: the documented bound.
    assert.equal(await me(lasting, tokens.revokedOnBrief), 200);
  });

  it('once Redis is back: the revoked token is refused everywhere, the purge sent meanwhile is applied, limits are shared', async () => {
    assert.equal((await brief.call('POST', '/admin/cache/purge', { admin: true, body: {} })).status, 200);
    await redis.start();

    await waitFor(
      'the token revoked during the outage refused by every instance',
      async () => ((await me(lasting, tokens.revokedOnBrief)) === 401 ? true : null),
      30_000, // the subscriber's next reconnection attempt
    );
    const purge = await lasting.call('POST', '/admin/cache/purge', { admin: true, body: { scope: 'stats' } });
    assert.deepEqual(
      purge.json.data.attributes.purged,
      [{ name: 'stats', entries: 0 }],
      'emptied when Redis came back',
    );
    for (const server of [lasting, brief]) assert.equal(await me(server, tokens.kept), 200);

    // Each instance counts in Redis again (its first count there logs the recovery).
    for (const server of [lasting, brief]) {
      await waitFor('rate limits counted in Redis again', async () => {
        await me(server, tokens.kept);
        return /rateLimits\.redisRecovered/.test(server.log(50_000));
      });
    }
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await forgotPassword(i % 2 === 0 ? lasting : brief, 'back@example.test'));
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429], 'one counter for both instances');
  });
});
