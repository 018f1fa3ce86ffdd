/**
 * A remote actor's document names its inbox, and Fedify posts deliveries there as given: without
 * FEDERATION_ALLOW_PRIVATE_ADDRESS the queue drops a delivery to an inbox on a private address (an
 * actor naming this server's network: SSRF), unsent. The inbox here is a listening server on loopback.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { federatedPublicUrl as publicUrl, queued, queueNoteTo } from '../../../test/helpers/fediverse-inbox.ts';
import { freePort } from '../../../test/helpers/processes.ts';
import type { AddressLookup, ResolvedAddress } from '../../platform/net/public-address.ts';
import { isPublicInbox } from './inbox-addresses.ts';

describe('federation: no delivery to a private address', () => {
  let t: TestApp;
  let alice: TestUser;
  let server: Server;
  let port: number;
  const received: string[] = [];

  before(async () => {
    t = await createTestApp({ env: { FEDERATION: 'on', PUBLIC_URL: publicUrl } });
    alice = await createUser(t, { username: 'alice' });
    port = await freePort();
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(request.url ?? '');
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('drops, unsent, a delivery to an inbox a remote actor put on a loopback address', async () => {
    await queueNoteTo(
      t,
      alice.id,
      'https://social.example/users/mallory',
      `http://127.0.0.1:${port}/internal/admin`,
      'hello',
    );
    const outcome = await t.services.platform.jobs.run('federation-queue');
    assert.deepEqual(received, [], 'nothing reached the private address');
    assert.equal(await queued(t), 0, 'the delivery is dropped, not retried');
    assert.equal((outcome as { report?: { rejected?: number } }).report?.rejected, 1, JSON.stringify(outcome));
  });

  it('never delivers to loopback when the inbox host answered a public address for the check (DNS rebinding)', async () => {
    const asked: string[] = [];
    const answers: ResolvedAddress[][] = [[{ address: '93.184.215.14', family: 4 }]];
    const strict = await createTestApp({
      env: { FEDERATION: 'on', PUBLIC_URL: publicUrl },
      deps: {
        addressLookup: async (host) => {
          asked.push(host);
          return answers[asked.length - 1] ?? [{ address: '127.0.0.1', family: 4 }];
        },
      },
    });
    try {
      const sender = await createUser(strict, { username: 'sender' });
      await queueNoteTo(
        strict,
        sender.id,
        'https://rebind.example/users/eve',
        `http://rebind.example:${port}/inbox`,
        'hi',
      );
      await strict.services.platform.jobs.run('federation-queue');
      assert.deepEqual(received, [], 'nothing reached loopback');
      assert.deepEqual(asked, ['rebind.example', 'rebind.example'], "the queue's check, then the connection's own");
      const [domain] = (await strict.request({ method: 'GET', url: '/admin/federation/domains', token: adminToken }))
        .json.data;
      assert.equal(domain?.attributes.consecutiveFailures, 1, 'a failed delivery, retried later');
    } finally {
      await strict.close();
    }
  });

  it('connects a delivery through the same resolver (private addresses allowed: it reaches the inbox by name)', async () => {
    const open = await createTestApp({
      env: { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', PUBLIC_URL: publicUrl },
      deps: { addressLookup: async () => [{ address: '127.0.0.1', family: 4 }] },
    });
    try {
      const sender = await createUser(open, { username: 'sender' });
      await queueNoteTo(
        open,
        sender.id,
        'https://rebind.example/users/eve',
        `http://rebind.example:${port}/inbox`,
        'hi',
      );
      await open.services.platform.jobs.run('federation-queue');
      assert.deepEqual(received.splice(0), ['/inbox']);
    } finally {
      await open.close();
    }
  });

  it('tells public inboxes from private ones, by the address or what the name resolves to', async () => {
    const lookup: AddressLookup = async (host) =>
      host === 'inside.example' ? [{ address: '10.1.2.3', family: 4 }] : [{ address: '93.184.215.14', family: 4 }];
    assert.equal(await isPublicInbox(new URL('https://mastodon.example/inbox'), lookup), true);
    assert.equal(await isPublicInbox(new URL('https://inside.example/inbox'), lookup), false);
    assert.equal(await isPublicInbox(new URL('http://169.254.169.254/latest/meta-data'), lookup), false);
    assert.equal(await isPublicInbox(new URL('http://[::1]:5432/'), lookup), false);
    assert.equal(await isPublicInbox(new URL('http://localhost:6379/'), lookup), false);
    assert.equal(await isPublicInbox(new URL('ftp://mastodon.example/inbox'), lookup), false);
  });
});
