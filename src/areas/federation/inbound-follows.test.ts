/**
 * Follows from the fediverse (docs/api.md, Federation): a Follow signed by a Mastodon or Pixelfed actor
 * on a loopback server makes the actor's local shadow a follower of the local user (its handle shown,
 * its name and summary as plain text, a notification with the handle) and the remote server receives
 * a signed Accept; Undo(Follow) ends it; a blocked actor gets a Reject and follows nobody. The shadow
 * never signs in and is never found in user search or counted as a member; the actor is fetched again
 * once its copy is a day old.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import type { FediverseServer, RemoteActor } from '../../../test/support/fediverse-server.ts';

describe('federation: follows from remote actors', () => {
  let fed: FederatedTest;
  let t: TestApp;
  let remote: FediverseServer;
  let ana: RemoteActor;
  let bea: RemoteActor;
  let alice: TestUser;
  let followNumber = 0;
  let anaFollow: Record<string, string>;

  before(async () => {
    fed = await startFederatedTest();
    ({ t, remote, ana, bea } = fed);
    alice = await createUser(t, { username: 'alice' });
  });
  after(() => fed.close());

  const handleOf = (actor: RemoteActor) => fed.handleOf(actor);
  const aliceActor = () => `${publicUrl}/ap/users/${alice.id}`;

  /** The actor's Follow of alice as its server emits it, delivered signed to the shared inbox. */
  async function follow(actor: RemoteActor, fixture = 'mastodon-follow') {
    followNumber += 1;
    const values = {
      username: actor.username,
      object: aliceActor(),
      followId: crypto.randomUUID(),
      followNumber: String(followNumber),
    };
    const response = await fed.send(actor, fixture, values);
    assert.equal(response.statusCode, 202, response.body);
    return { ...values, id: JSON.parse(remote.fixture(fixture, values)).id as string };
  }

  async function followers(user: TestUser) {
    const response = await t.request({ method: 'GET', url: `/api/users/${user.id}/followers`, token: user.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data as { id: string; attributes: { username: string; nickname: string | null } }[];
  }

  const answersTo = (actor: RemoteActor, followId: string) =>
    remote.received.filter(
      (received) =>
        received.inbox === `/users/${actor.username}/inbox` &&
        (received.activity.object as { id?: string } | undefined)?.id === followId,
    );

  it('makes a Mastodon actor a follower, notified with its handle, and sends it a signed Accept', async () => {
    const sent = await follow(ana);
    anaFollow = sent;
    const [follower, ...others] = await followers(alice);
    assert.equal(others.length, 0);
    assert.equal(follower?.attributes.username, handleOf(ana));
    assert.equal(follower?.attributes.nickname, 'Ana Souza');

    assert.deepEqual(await t.services.areas.follows.follows.counts(alice.id), { followers: 1, following: 0 });

    const feed = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: alice.token });
    const notification = feed.json.data.find(
      (n: { attributes: { type: string } }) => n.attributes.type === 'follow.received',
    );
    assert.equal(notification?.attributes.body, `@${handleOf(ana)} started following you.`);
    assert.equal(notification?.attributes.data.actorUsername, handleOf(ana));
    assert.equal(notification?.attributes.data.actorId, follower?.id);

    const [accept, ...more] = answersTo(ana, sent.id);
    assert.equal(more.length, 0);
    assert.equal(accept?.activity.type, 'Accept');
    assert.equal(accept?.activity.actor, aliceActor());
    assert.ok(accept?.signature, 'the Accept is signed');
    assert.ok(remote.fetched.includes('/users/ana'), 'the actor was fetched');

    const actor = await t.services.areas.federation.federation?.remoteActor(ana.id);
    assert.equal(actor?.userId, follower?.id);
    assert.equal(actor?.summary, 'Street photography from Lisbon and Porto. #photography', 'plain text');
    assert.equal(actor?.inbox, `${remote.origin}/users/ana/inbox`);
  });

  it('accepts a Follow repeated by the remote server once more, and keeps one follow', async () => {
    const before = remote.received.length;
    const sent = await follow(ana);
    assert.deepEqual(
      remote.received.slice(before).map((received) => received.activity.type),
      ['Accept'],
    );
    assert.equal(answersTo(ana, sent.id)[0]?.activity.type, 'Accept');
    assert.equal((await followers(alice)).length, 1);
  });

  it('ends the follow on Undo(Follow)', async () => {
    const sent = await follow(bea, 'pixelfed-follow');
    assert.equal(answersTo(bea, sent.id)[0]?.activity.type, 'Accept');
    assert.deepEqual((await followers(alice)).map((f) => f.attributes.username).sort(), [handleOf(ana), handleOf(bea)]);

    const response = await fed.send(ana, 'mastodon-undo-follow', anaFollow, `${publicUrl}/ap/users/${alice.id}/inbox`);
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(
      (await followers(alice)).map((f) => f.attributes.username),
      [handleOf(bea)],
    );
    assert.deepEqual(await t.services.areas.follows.follows.counts(alice.id), { followers: 1, following: 0 });
  });

  it('refuses the Follow of an actor the local user blocks (Reject), following nothing', async () => {
    const beaUser = (await followers(alice)).find((f) => f.attributes.username === handleOf(bea));
    assert.ok(beaUser);
    const block = await t.request({ method: 'PUT', url: `/api/users/me/blocks/${beaUser.id}`, token: alice.token });
    assert.equal(block.statusCode, 200, block.body);
    assert.deepEqual(await followers(alice), [], 'the block ended the follow');

    const sent = await follow(bea, 'pixelfed-follow');
    const [answer] = answersTo(bea, sent.id);
    assert.equal(answer?.activity.type, 'Reject');
    assert.ok(answer?.signature);
    assert.deepEqual(await followers(alice), []);
  });

  it('never signs the shadow in, finds it in user search or counts it as a member', async () => {
    const shadow = await t.services.areas.accounts.users.find(
      (await t.services.areas.federation.federation?.remoteActor(ana.id))?.userId ?? '',
    );
    assert.ok(shadow);
    assert.equal(shadow.passwordHash, null);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: shadow.email, password: 'any password at all 1' },
    });
    assert.equal(login.statusCode, 401);
    const search = await t.request({ method: 'GET', url: '/api/users/search?q=ana' });
    assert.deepEqual(search.json.data, []);
    const stats = await t.request({ method: 'GET', url: '/admin/stats', token: adminToken });
    assert.equal(stats.json.data.attributes.counts.users.total, 1, 'alice alone');
  });

  it('fetches the actor again once its copy is a day old, with its new name as plain text', async () => {
    ana.document.name = 'Ana <b>S.</b> &amp; co';
    await follow(ana);
    assert.equal((await followers(alice))[0]?.attributes.nickname, 'Ana Souza', 'the copy of the day is kept');
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const fetches = remote.fetched.filter((path) => path === '/users/ana').length;
    await follow(ana);
    assert.ok(remote.fetched.filter((path) => path === '/users/ana').length > fetches);
    const names = (await followers(alice)).map((f) => f.attributes.nickname);
    assert.ok(names.includes('Ana S. & co'), names.join());
  });
});
