/**
 * Local users following remote accounts (docs/api.md, Federation), against a loopback Mastodon /
 * Pixelfed stand-in: a handle is looked up by WebFinger and the actor fetched, a signed Follow reaches
 * the remote inbox, the follow is pending until the remote server's signed Accept (then it counts and
 * is listed with the account's handle) or its Reject (then it is gone); unfollowing sends Undo(Follow).
 * POST /api/users/me/following/{id} of a remote account asks the same way; a block withdraws it; only
 * the actor followed may answer. Bad handles are refused; with federation off, 409 federationOff.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  deliver,
  drainFederationQueue,
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import type { FediverseServer, ReceivedActivity, RemoteActor } from '../../../test/support/fediverse-server.ts';

describe('federation: local users follow remote accounts', () => {
  let fed: FederatedTest;
  let t: TestApp;
  let remote: FediverseServer;
  let ana: RemoteActor;
  let bea: RemoteActor;
  let alice: TestUser;
  let answerNumber = 0;
  let anaShadowId = '';
  let beaShadowId = '';

  before(async () => {
    fed = await startFederatedTest();
    ({ t, remote, ana, bea } = fed);
    alice = await createUser(t, { username: 'alice' });
  });
  after(() => fed.close());

  const aliceActor = () => `${publicUrl}/ap/users/${alice.id}`;
  const aliceInbox = () => `${aliceActor()}/inbox`;

  const followRemote = (handle: string, token = alice.token) =>
    t.request({ method: 'POST', url: '/api/users/me/following/remote', token, payload: { handle } });

  async function list(url: string) {
    const response = await t.request({ method: 'GET', url, token: alice.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data as { id: string; attributes: Record<string, any> }[];
  }
  const following = () => list('/api/users/me/following');
  const remoteFollows = () => list('/api/users/me/following/remote');

  /** What the actor's inbox received of this type since `from`. */
  const receivedBy = (actor: RemoteActor, type: string, from = 0): ReceivedActivity[] =>
    remote.received.slice(from).filter((r) => r.inbox === `/users/${actor.username}/inbox` && r.activity.type === type);

  /** The remote server's answer (a fixture) to a Follow it received, signed and delivered to alice's inbox. */
  async function answer(actor: RemoteActor, fixture: string, follow: ReceivedActivity) {
    answerNumber += 1;
    const response = await fed.send(
      actor,
      fixture,
      {
        answerNumber: String(answerNumber),
        followId: String(follow.activity.id),
        followActor: String(follow.activity.actor),
      },
      aliceInbox(),
    );
    assert.equal(response.statusCode, 202, response.body);
  }

  it('looks the handle up, answers 202 pending, and sends the account a signed Follow', async () => {
    const response = await followRemote(`@${fed.handleOf(ana)}`);
    assert.equal(response.statusCode, 202, response.body);
    const { id, attributes } = response.json.data;
    anaShadowId = id;
    assert.equal(attributes.username, fed.handleOf(ana));
    assert.equal(attributes.nickname, 'Ana Souza');
    assert.equal(attributes.remoteFollow.state, 'pending');
    assert.equal(attributes.remoteFollow.actorUrl, ana.id);
    assert.equal(attributes.remoteFollow.acceptedAt, null);
    assert.ok(remote.fetched.includes('/.well-known/webfinger'), 'found by WebFinger');

    const before = remote.received.length;
    await drainFederationQueue(t);
    const [sent, ...more] = receivedBy(ana, 'Follow', before);
    assert.equal(more.length, 0);
    assert.ok(sent?.signature, 'the Follow is signed');
    assert.equal(sent?.activity.actor, aliceActor());
    assert.equal(sent?.activity.object, ana.id);

    assert.deepEqual(await following(), [], 'not a follow while pending');
    const [pending] = await remoteFollows();
    assert.equal(pending?.id, anaShadowId);
    assert.equal(pending?.attributes.remoteFollow.state, 'pending');
    const relationship = await t.request({
      method: 'GET',
      url: `/api/users/${anaShadowId}/relationship`,
      token: alice.token,
    });
    assert.equal(relationship.json.data.attributes.following, false);
    assert.equal(relationship.json.data.attributes.followRequested, true);
  });

  it("becomes a follow once the remote server's Accept arrives, listed with the account's handle", async () => {
    const [follow] = receivedBy(ana, 'Follow');
    assert.ok(follow);
    const accept = await deliver(t, await remote.answerFollow(ana, follow, 'Accept', aliceInbox()));
    assert.equal(accept.statusCode, 202, accept.body);
    await drainFederationQueue(t);

    const [followed, ...others] = await following();
    assert.equal(others.length, 0);
    assert.equal(followed?.id, anaShadowId);
    assert.equal(followed?.attributes.username, fed.handleOf(ana));
    assert.equal(followed?.attributes.experience, 0, 'no experience for the remote account here');
    assert.deepEqual(await t.services.areas.follows.follows.counts(alice.id), { followers: 0, following: 1 });
    const [accepted] = await remoteFollows();
    assert.equal(accepted?.attributes.remoteFollow.state, 'accepted');
    assert.ok(accepted?.attributes.remoteFollow.acceptedAt);

    const again = await followRemote(fed.handleOf(ana));
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json.errors[0].code, 'alreadyFollowing');
  });

  it('sends Undo(Follow) of the same Follow on unfollowing, and the follow is gone', async () => {
    const [follow] = receivedBy(ana, 'Follow');
    const before = remote.received.length;
    const response = await t.request({
      method: 'DELETE',
      url: `/api/users/me/following/${anaShadowId}`,
      token: alice.token,
    });
    assert.equal(response.statusCode, 204, response.body);
    await drainFederationQueue(t);
    const [undo, ...more] = receivedBy(ana, 'Undo', before);
    assert.equal(more.length, 0);
    assert.ok(undo?.signature);
    assert.equal(undo?.activity.actor, aliceActor());
    const undone = undo?.activity.object as Record<string, unknown>;
    assert.equal(undone.type, 'Follow');
    assert.equal(undone.id, follow?.activity.id);
    assert.deepEqual(await following(), []);
    assert.deepEqual(await remoteFollows(), []);
    assert.deepEqual(await t.services.areas.follows.follows.counts(alice.id), { followers: 0, following: 0 });
  });

  it("drops the request on the remote server's Reject (an account found by its actor URL)", async () => {
    const response = await followRemote(bea.id);
    assert.equal(response.statusCode, 202, response.body);
    beaShadowId = response.json.data.id;
    assert.equal(response.json.data.attributes.username, fed.handleOf(bea));
    const before = remote.received.length;
    await drainFederationQueue(t);
    const [follow] = receivedBy(bea, 'Follow', before);
    assert.ok(follow);

    // Another actor cannot answer for bea.
    await answer(ana, 'fedfollow-mastodon-accept', follow);
    assert.equal((await remoteFollows())[0]?.attributes.remoteFollow.state, 'pending');

    const reject = await deliver(t, await remote.answerFollow(bea, follow, 'Reject', aliceInbox()));
    assert.equal(reject.statusCode, 202, reject.body);
    await drainFederationQueue(t);
    assert.deepEqual(await remoteFollows(), []);
    assert.deepEqual(await following(), []);
  });

  it('asks the same way through POST /api/users/me/following/{id}, and takes an Accept that leaves out the Follow id', async () => {
    const before = remote.received.length;
    const response = await t.request({
      method: 'POST',
      url: `/api/users/me/following/${beaShadowId}`,
      token: alice.token,
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.equal(response.json.data.attributes.following, false);
    assert.equal(response.json.data.attributes.followRequested, true);
    await drainFederationQueue(t);
    const [follow] = receivedBy(bea, 'Follow', before);
    assert.equal(follow?.activity.actor, aliceActor());

    await answer(bea, 'fedfollow-accept-without-id', follow as ReceivedActivity);
    assert.deepEqual(
      (await following()).map((user) => user.attributes.username),
      [fed.handleOf(bea)],
    );
  });

  it('withdraws the follow (Undo) when the user blocks the remote account', async () => {
    const [follow] = receivedBy(bea, 'Follow').slice(-1);
    const before = remote.received.length;
    const block = await t.request({ method: 'PUT', url: `/api/users/me/blocks/${beaShadowId}`, token: alice.token });
    assert.equal(block.statusCode, 200, block.body);
    await drainFederationQueue(t);
    const [undo] = receivedBy(bea, 'Undo', before);
    assert.equal((undo?.activity.object as Record<string, unknown> | undefined)?.id, follow?.activity.id);
    assert.deepEqual(await following(), []);
    assert.deepEqual(await remoteFollows(), []);
  });

  it("takes an Accept naming the Follow by its id alone, and not another user's Follow", async () => {
    const cid = await remote.addActor('mastodon-actor', 'cid');
    const response = await followRemote(fed.handleOf(cid));
    assert.equal(response.statusCode, 202, response.body);
    const before = remote.received.length;
    await drainFederationQueue(t);
    const [follow] = receivedBy(cid, 'Follow', before);
    assert.ok(follow);

    // cid cannot accept a Follow sent to someone else (dan's of ana), named by its id.
    const dan = await createUser(t, { username: 'dan' });
    const danFollows = await followRemote(fed.handleOf(ana), dan.token);
    assert.equal(danFollows.statusCode, 202, danFollows.body);
    const fromDan = remote.received.length;
    await drainFederationQueue(t);
    const [danFollow] = receivedBy(ana, 'Follow', fromDan);
    assert.equal(danFollow?.activity.actor, `${publicUrl}/ap/users/${dan.id}`);
    await answer(cid, 'fedfollow-accept-by-id', danFollow as ReceivedActivity);
    const danList = await t.request({ method: 'GET', url: '/api/users/me/following/remote', token: dan.token });
    assert.equal(danList.json.data[0].attributes.remoteFollow.state, 'pending');
    const section = t.services.platform.exports.sections().find((candidate) => candidate.name === 'remote-follows');
    const exported = [];
    for await (const row of section?.rows(dan.id) ?? []) exported.push(row);
    assert.deepEqual(
      exported.map((row) => [row.actorUrl, row.state]),
      [[ana.id, 'pending']],
      "dan's data export holds his request",
    );
    assert.deepEqual(await following(), []);

    await answer(cid, 'fedfollow-accept-by-id', follow);
    assert.deepEqual(
      (await following()).map((user) => user.attributes.username),
      [fed.handleOf(cid)],
    );
  });

  it("refuses malformed handles (422), this server's own accounts (422) and unknown accounts (404)", async () => {
    for (const handle of ['ana', 'ana@', '@@ana@host', 'ana@host/path', 'ftp://host/users/ana', ' ']) {
      const response = await followRemote(handle);
      assert.equal(response.statusCode, 422, `${handle}: ${response.body}`);
      assert.ok(['invalidHandle', 'validationFailed'].includes(response.json.errors[0].code), handle);
    }
    for (const handle of ['alice@travel.example', `${publicUrl}/ap/users/${alice.id}`]) {
      const response = await followRemote(handle);
      assert.equal(response.statusCode, 422, response.body);
      assert.equal(response.json.errors[0].code, 'localHandle');
    }
    const unknown = await followRemote(`nobody@${new URL(remote.origin).host}`);
    assert.equal(unknown.statusCode, 404, unknown.body);
    const unsigned = await t.request({
      method: 'POST',
      url: '/api/users/me/following/remote',
      payload: { handle: fed.handleOf(ana) },
    });
    assert.equal(unsigned.statusCode, 401);
  });

  it('neither asks nor follows an account of a domain the operators reject (404), by handle or URL', async () => {
    const rui = await remote.addActor('mastodon-actor', 'rejected-rui');
    const admin = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.request({ method, url, token: adminToken, ...(payload ? { payload } : {}) });
    const blocked = await admin('POST', '/admin/federation/domain-blocks', { domain: '127.0.0.1', severity: 'reject' });
    assert.equal(blocked.statusCode, 201, blocked.body);
    try {
      const fetchedBefore = remote.fetched.length;
      for (const handle of [fed.handleOf(rui), rui.id]) {
        const response = await followRemote(handle);
        assert.equal(response.statusCode, 404, `${handle}: ${response.body}`);
      }
      assert.deepEqual(remote.fetched.slice(fetchedBefore), [], 'neither WebFinger nor the actor was asked');
      assert.ok(!(await remoteFollows()).some((row) => row.attributes.username === fed.handleOf(rui)));
    } finally {
      assert.equal((await admin('DELETE', '/admin/federation/domain-blocks/127.0.0.1')).statusCode, 204);
    }
    assert.equal((await followRemote(fed.handleOf(rui))).statusCode, 202, 'followed once the block is lifted');
  });
});

describe('federation off: remote follows', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers 409 federationOff to a remote follow and to the list', async () => {
    const bob = await createUser(t);
    const follow = await t.request({
      method: 'POST',
      url: '/api/users/me/following/remote',
      token: bob.token,
      payload: { handle: 'ana@mastodon.example' },
    });
    assert.equal(follow.statusCode, 409, follow.body);
    assert.equal(follow.json.errors[0].code, 'federationOff');
    const list = await t.request({ method: 'GET', url: '/api/users/me/following/remote', token: bob.token });
    assert.equal(list.statusCode, 409);
  });

  it('answers 409 federationOff to a follow of a remote account by id, and unfollows it without sending', async () => {
    const bob = await createUser(t);
    const shadow = await t.services.areas.accounts.accounts.createRemoteUser({
      handle: 'ana@mastodon.example',
      nickname: 'Ana',
    });
    const follow = await t.request({ method: 'POST', url: `/api/users/me/following/${shadow.id}`, token: bob.token });
    assert.equal(follow.statusCode, 409, follow.body);
    assert.equal(follow.json.errors[0].code, 'federationOff');
    const unfollow = await t.request({
      method: 'DELETE',
      url: `/api/users/me/following/${shadow.id}`,
      token: bob.token,
    });
    assert.equal(unfollow.statusCode, 204, unfollow.body);
  });
});
