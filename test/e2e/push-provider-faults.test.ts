/**
 * The push provider failing, then recovering, under two instances of the real server flushing at
 * once: OneSignal (a local stand-in speaking its API) answers 500, then 429 with Retry-After for two
 * seconds, then 200. Every push arrives once, and no instance knocks again before the Retry-After it
 * was given: within the 429 window, each instance sends at most the one request that learned of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Instances, instancesUnavailable, startInstances } from '../helpers/instances.ts';
import { registerThrough, type ServerProcess } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { type FakeOneSignal, startFakeOneSignal } from '../support/fake-onesignal-server.ts';

const skip = instancesUnavailable();

describe('push provider answering 500, then 429 with Retry-After, then 200', { skip: skip ?? false }, () => {
  let onesignal: FakeOneSignal;
  let instances: Instances;
  let servers: ServerProcess[];
  const recipients: string[] = [];

  before(async () => {
    onesignal = await startFakeOneSignal();
    instances = await startInstances([{}, {}], {
      PUSH_PROVIDER: 'onesignal',
      ONESIGNAL_API_URL: onesignal.url,
      ONESIGNAL_APP_ID: onesignal.appId,
      ONESIGNAL_API_KEY: onesignal.apiKey,
      NOTIFICATION_DIGEST_INTERVAL_MINUTES: '1440', // flushed by the test only
    });
    servers = instances.servers;
    const actor = await registerThrough(servers[0]!, 'actor@example.test');
    for (let i = 0; i < 6; i++) {
      const server = servers[i % 2]!;
      const recipient = await registerThrough(server, `recipient${i}@example.test`);
      recipients.push(recipient.hex);
      const followed = await server.call('POST', `/api/users/me/following/${recipient.hex}`, { token: actor.token });
      assert.equal(followed.status, 201, JSON.stringify(followed.json));
    }
  });

  after(async () => {
    await instances?.close();
    await onesignal?.close();
  });

  const flushBoth = () =>
    Promise.all(servers.map((server) => server.call('POST', '/admin/jobs/flush/notifications-push', { admin: true })));

  it('delivers every push once, and honours Retry-After', async (t) => {
    onesignal.outage([
      { status: 500, times: 4 },
      { status: 429, seconds: 2 },
    ]);
    const first = await flushBoth();
    for (const answer of first) assert.equal(answer.status, 200, JSON.stringify(answer.json));
    // What a flush left for later is pushed by the next ones.
    await waitFor(
      'every push delivered',
      async () => {
        if (onesignal.notifications.length >= recipients.length) return true;
        await flushBoth();
        return null;
      },
      60_000,
    );

    const delivered = onesignal.notifications.flatMap((notification) => notification.externalIds).sort();
    assert.deepEqual(delivered, [...recipients].sort(), 'each recipient got exactly one push');
    const statuses = onesignal.requests.map((request) => request.status);
    t.diagnostic(`answers in order: ${statuses.join(' ')}`);
    assert.equal(statuses.filter((status) => status === 500).length, 4, `the outage was met: ${statuses}`);
    assert.ok(
      statuses.filter((status) => status === 429).length <= servers.length,
      `a request came back within the Retry-After: ${statuses}\n${instances.logs()}`,
    );
    assert.equal(onesignal.requests.filter((request) => request.repeat).length, 0, 'no push was sent twice');
  });
});
