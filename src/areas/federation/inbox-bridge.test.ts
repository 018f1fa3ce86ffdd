/**
 * The Fastify bridge hands Fedify a POST's exact bytes: an activity signed as Mastodon signs it
 * (HTTP Signatures, draft-cavage, a Digest of the body) by an actor on a loopback server is taken
 * (202) and filed on the queue, which the job federation-queue drains; a body changed after signing,
 * or unsigned, is refused (401). Private addresses are fetched only with
 * FEDERATION_ALLOW_PRIVATE_ADDRESS=on. Each sending domain has its deliveries of the minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { deliver, queued } from '../../../test/helpers/fediverse-inbox.ts';
import {
  type FediverseServer,
  type RemoteActor,
  startFediverseServer,
} from '../../../test/support/fediverse-server.ts';
import { inboxPerDomainPerMinute } from './inbox-rate-limits.ts';

const publicUrl = 'https://travel.example';

describe('federation inbox bridge', () => {
  let t: TestApp;
  let remote: FediverseServer;
  let ana: RemoteActor;
  let alice: TestUser;

  before(async () => {
    t = await createTestApp({
      env: { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', PUBLIC_URL: publicUrl },
    });
    remote = await startFediverseServer();
    ana = await remote.addActor('mastodon-actor', 'ana');
    alice = await createUser(t, { username: 'alice' });
  });
  after(async () => {
    await remote.close();
    await t.close();
  });

  const likeOfAlice = () =>
    remote.fixture('mastodon-like', { username: 'ana', object: `${publicUrl}/ap/users/${alice.id}` });

  it('takes a signed activity over its exact bytes and files it for the job federation-queue', async () => {
    const body = likeOfAlice();
    assert.notEqual(body, JSON.stringify(JSON.parse(body)), 'the fixture is not in JSON.stringify form');
    const response = await deliver(t, await remote.signedPost(ana, `${publicUrl}/ap/inbox`, body));
    assert.equal(response.statusCode, 202, response.body);
    assert.equal(await queued(t), 1);
    const stats = await t.request({ method: 'GET', url: '/admin/stats', token: adminToken });
    assert.equal(stats.json.data.attributes.backlogs['federation.queueWaiting'], 1, 'shown to operators');
    const run = await t.services.platform.jobs.run('federation-queue');
    assert.equal(run.ran, true);
    assert.deepEqual(run.ran && run.report, {
      handled: 1,
      failed: 0,
      dropped: 0,
      rejected: 0,
      held: 0,
      givenUp: 0,
      expiredEntries: 0,
    });
    assert.equal(await queued(t), 0);
  });

  it('refuses a body changed after signing, and an unsigned one', async () => {
    const body = likeOfAlice();
    const signed = await remote.signedPost(ana, `${publicUrl}/ap/users/${alice.id}/inbox`, body);
    const changed = await deliver(t, signed, body.replace('208877', '208878'));
    assert.equal(changed.statusCode, 401);
    const unsigned = await t.request({
      method: 'POST',
      url: '/ap/inbox',
      headers: { 'content-type': 'application/activity+json' },
      payload: body,
    });
    assert.equal(unsigned.statusCode, 401);
    assert.equal(await queued(t), 0);
  });

  it('refuses a body over 1 MB before reading it as an activity', async () => {
    const body = JSON.stringify({ type: 'Note', content: 'x'.repeat(1024 * 1024) });
    const response = await deliver(t, await remote.signedPost(ana, `${publicUrl}/ap/inbox`, body));
    assert.equal(response.statusCode, 413);
    assert.equal(await queued(t), 0);
  });
});

describe('federation inbox without FEDERATION_ALLOW_PRIVATE_ADDRESS', () => {
  let t: TestApp;
  let remote: FediverseServer;

  before(async () => {
    t = await createTestApp({ env: { FEDERATION: 'on', PUBLIC_URL: publicUrl } });
    remote = await startFediverseServer();
  });
  after(async () => {
    await remote.close();
    await t.close();
  });

  it('never fetches the key of an actor on a loopback address, so its activity is refused', async () => {
    const ana = await remote.addActor('mastodon-actor', 'ana');
    const user = await createUser(t, { username: 'bruno' });
    const body = remote.fixture('mastodon-like', { username: 'ana', object: `${publicUrl}/ap/users/${user.id}` });
    const response = await deliver(t, await remote.signedPost(ana, `${publicUrl}/ap/inbox`, body));
    assert.equal(response.statusCode, 401, response.body);
    assert.equal(await queued(t), 0);
  });
});

describe('federation inbox rate limits (RATE_LIMITS=on)', () => {
  let t: TestApp;
  let remote: FediverseServer;
  let another: FediverseServer;

  before(async () => {
    t = await createTestApp({
      env: { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', PUBLIC_URL: publicUrl, RATE_LIMITS: 'on' },
    });
    [remote, another] = await Promise.all([startFediverseServer(), startFediverseServer()]);
  });
  after(async () => {
    await Promise.all([remote.close(), another.close()]);
    await t.close();
  });

  it('refuses a domain past its deliveries of the minute (429), not the other domains', async () => {
    const user = await createUser(t, { username: 'chloe' });
    const object = `${publicUrl}/ap/users/${user.id}`;
    const ana = await remote.addActor('mastodon-actor', 'ana');
    const body = remote.fixture('mastodon-like', { username: 'ana', object });
    const signed = await remote.signedPost(ana, `${publicUrl}/ap/inbox`, body);
    for (let n = 0; n < inboxPerDomainPerMinute; n += 1) {
      const response = await deliver(t, signed.clone());
      assert.equal(response.statusCode, 202, `delivery ${n + 1}`);
    }
    const refused = await deliver(t, signed.clone());
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);

    const bea = await another.addActor('mastodon-actor', 'bea');
    const other = another.fixture('mastodon-like', { username: 'bea', object });
    const taken = await deliver(t, await another.signedPost(bea, `${publicUrl}/ap/inbox`, other));
    assert.equal(taken.statusCode, 202);

    t.clock.advance(61_000);
    assert.equal((await deliver(t, signed.clone())).statusCode, 202, 'a new minute');
  });
});
