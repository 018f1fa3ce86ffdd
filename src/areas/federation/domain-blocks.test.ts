/**
 * Operators' domain blocks (docs/api.md, Federation; docs/operations.md, Moderation of federation):
 * the admin routes (admin only, audited, domains normalized), `reject` (signed deliveries refused at the
 * inbox before the key is fetched, nothing delivered to the domain, its actors' follows removed and
 * their content hidden until the block is lifted) and `silence` (its actors reach only the local users
 * who follow them). Two loopback servers stand in for two domains: 127.0.0.1 (ana, bea) and 127.0.0.2 (cai).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Create, Note } from '@fedify/fedify/vocab';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  deliver,
  drainFederationQueue,
  type FederatedTest,
  followAccepted,
  federatedPublicUrl as publicUrl,
  queued,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import { watchStatements } from '../../../test/helpers/statement-counter.ts';
import {
  type FediverseServer,
  type RemoteActor,
  startFediverseServer,
} from '../../../test/support/fediverse-server.ts';
import { heldForMs } from './domain-block-list.ts';

describe('federation: domain blocks', () => {
  let fed: FederatedTest;
  let t: TestApp;
  let remote: FediverseServer;
  let other: FediverseServer;
  let cai: RemoteActor;
  let alice: TestUser;
  let followNumber = 0;

  before(async () => {
    fed = await startFederatedTest();
    ({ t, remote } = fed);
    other = await startFediverseServer({ host: '127.0.0.2' });
    cai = await other.addActor('mastodon-actor', 'cai');
    alice = await createUser(t, { username: 'alice' });
  });
  after(async () => {
    await other.close();
    await fed.close();
  });

  const admin = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, body });

  const block = async (domain: string, severity: 'reject' | 'silence', status = 201) => {
    const response = await admin('POST', '/admin/federation/domain-blocks', { domain, severity });
    assert.equal(response.statusCode, status, response.body);
    return response.json.data;
  };

  /** A fixture signed by the actor of `server`, delivered to the shared inbox and handled. */
  async function send(server: FediverseServer, actor: RemoteActor, fixture: string, values: Record<string, string>) {
    const body = server.fixture(fixture, { username: actor.username, ...values });
    const response = await deliver(t, await server.signedPost(actor, `${publicUrl}/ap/inbox`, body));
    await drainFederationQueue(t);
    return response;
  }

  const follow = (server: FediverseServer, actor: RemoteActor) => {
    followNumber += 1;
    return send(server, actor, 'mastodon-follow', {
      object: `${publicUrl}/ap/users/${alice.id}`,
      followId: `follows/${followNumber}`,
    });
  };

  async function followerNames(): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/users/${alice.id}/followers`, token: alice.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username).sort();
  }

  async function likers(mediaId: string): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/media/${mediaId}/likes` });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username).sort();
  }

  /** The authors of a post's comments, by username (a remote author by its handle). */
  async function commentAuthors(mediaId: string): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/media/${mediaId}/comments` });
    assert.equal(response.statusCode, 200, response.body);
    const usernames = new Map<string, string>(
      (response.json.included ?? []).map((user: { id: string; attributes: { username: string } }) => [
        user.id,
        user.attributes.username,
      ]),
    );
    return response.json.data.map(
      (comment: { relationships: { author: { data: { id: string } | null } } }) =>
        usernames.get(comment.relationships.author.data?.id ?? '') ?? null,
    );
  }

  const shadowOf = async (actor: RemoteActor) => {
    const row = await t.services.areas.federation.federation?.remoteActor(actor.id);
    assert.ok(row, `${actor.username} is known`);
    return row.userId;
  };

  /** A Create(Note) from alice to the actor, through Fedify's queue as publishing will send it. */
  async function sendNoteTo(server: FediverseServer, actor: RemoteActor, text: string) {
    const federation = await t.services.areas.federation.federation?.federation();
    assert.ok(federation);
    const ctx = federation.createContext(new URL(publicUrl), null);
    const id = new URL(`${publicUrl}/ap/posts/${crypto.randomUUID()}`);
    const note = new Note({ id, attribution: ctx.getActorUri(alice.id), content: text });
    await ctx.sendActivity(
      { identifier: alice.id },
      { id: new URL(actor.id), inboxId: new URL(`${server.origin}/users/${actor.username}/inbox`), endpoints: null },
      new Create({ id: new URL(`${id.href}#create`), actor: ctx.getActorUri(alice.id), object: note }),
    );
    await drainFederationQueue(t);
  }

  const notesReceived = (server: FediverseServer, text: string) =>
    server.received.filter(
      (received) =>
        received.activity.type === 'Create' && (received.activity.object as { content?: string })?.content === text,
    );

  it('refuses a user token and no token (401) on every admin route', async () => {
    const routes = [
      { method: 'GET', url: '/admin/federation/domain-blocks' },
      { method: 'POST', url: '/admin/federation/domain-blocks', payload: { domain: 'x.example', severity: 'reject' } },
      { method: 'DELETE', url: '/admin/federation/domain-blocks/x.example' },
      { method: 'GET', url: '/admin/federation/domains' },
    ] as const;
    for (const call of routes) {
      assert.equal((await t.request({ ...call, token: alice.token })).statusCode, 401, `${call.method} ${call.url}`);
      assert.equal((await t.request(call)).statusCode, 401, `${call.method} ${call.url}`);
    }
    assert.deepEqual((await admin('GET', '/admin/federation/domain-blocks')).json.data, [], 'nothing was blocked');
  });

  it('normalizes the domain, changes a block in place, lifts it, and audits every change', async () => {
    const created = await admin('POST', '/admin/federation/domain-blocks', {
      domain: ' https://Spam.EXAMPLE:8443/@someone ',
      severity: 'silence',
      publicReason: 'Spam',
      privateReason: 'Reports #12 and #14',
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json.data.id, 'spam.example');
    assert.deepEqual(
      { ...created.json.data.attributes, createdAt: undefined, updatedAt: undefined },
      {
        domain: 'spam.example',
        severity: 'silence',
        publicReason: 'Spam',
        privateReason: 'Reports #12 and #14',
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    t.clock.advance(60_000);
    const changed = await block('SPAM.example', 'reject', 200);
    assert.equal(changed.attributes.severity, 'reject');
    assert.equal(changed.attributes.publicReason, null);
    assert.equal(changed.attributes.createdAt, created.json.data.attributes.createdAt);
    assert.notEqual(changed.attributes.updatedAt, created.json.data.attributes.updatedAt);
    await block('xn--bcher-kva.example', 'silence');
    const idna = await admin('POST', '/admin/federation/domain-blocks', {
      domain: 'bücher.example',
      severity: 'silence',
    });
    assert.equal(idna.statusCode, 200, 'the same domain, in IDNA');

    const listed = await admin('GET', '/admin/federation/domain-blocks');
    assert.deepEqual(
      listed.json.data.map((row: { id: string }) => row.id),
      ['spam.example', 'xn--bcher-kva.example'],
    );

    for (const domain of ['not a domain', 'localhost', '[::1]', 'ana:secret@host.example']) {
      const refused = await admin('POST', '/admin/federation/domain-blocks', { domain, severity: 'reject' });
      assert.equal(refused.statusCode, 422, domain);
      assert.equal(refused.json.errors[0].source.pointer, '/domain');
    }
    const badSeverity = await admin('POST', '/admin/federation/domain-blocks', {
      domain: 'a.example',
      severity: 'mute',
    });
    assert.equal(badSeverity.statusCode, 422);

    assert.equal((await admin('DELETE', '/admin/federation/domain-blocks/Spam.Example')).statusCode, 204);
    assert.equal((await admin('DELETE', '/admin/federation/domain-blocks/spam.example')).statusCode, 404);
    assert.equal((await admin('DELETE', '/admin/federation/domain-blocks/xn--bcher-kva.example')).statusCode, 204);

    const audit = await admin('GET', '/admin/audit?targetType=domain&limit=100');
    assert.equal(audit.statusCode, 200, audit.body);
    const entries = audit.json.data
      .map((row: { attributes: { action: string; target: { id: string } } }) => [
        row.attributes.action,
        row.attributes.target.id,
      ])
      .sort();
    assert.deepEqual(entries, [
      ['federation.domainBlock.create', 'spam.example'],
      ['federation.domainBlock.create', 'xn--bcher-kva.example'],
      ['federation.domainBlock.delete', 'spam.example'],
      ['federation.domainBlock.delete', 'xn--bcher-kva.example'],
      ['federation.domainBlock.update', 'spam.example'],
      ['federation.domainBlock.update', 'xn--bcher-kva.example'],
    ]);
  });

  it('reject: refuses the domain at the inbox before fetching a key, delivers nothing to it, and suspends its actors until lifted', async () => {
    const photo = await createMediaRow(t, alice.id);
    assert.equal((await follow(remote, fed.ana)).statusCode, 202);
    assert.equal(
      (await send(remote, fed.ana, 'mastodon-like', { object: `${publicUrl}/ap/posts/${photo.id}` })).statusCode,
      202,
    );
    assert.equal((await follow(other, cai)).statusCode, 202);
    assert.deepEqual(await followerNames(), [fed.handleOf(fed.ana), `cai@${new URL(other.origin).host}`].sort());
    assert.deepEqual(await likers(photo.id), [fed.handleOf(fed.ana)]);
    const anaShadow = await shadowOf(fed.ana);

    // Blocking the parent of the stand-in's address would not do: an IPv4 address covers itself only.
    await block('127.0.0.1', 'reject');
    assert.deepEqual(await followerNames(), [`cai@${new URL(other.origin).host}`], "ana's follow is removed");
    assert.deepEqual(await likers(photo.id), [], "ana's like is hidden with her account");
    const banned = await admin('GET', `/admin/users/${anaShadow}`);
    assert.equal(banned.statusCode, 200, banned.body);
    assert.match(banned.json.data.attributes.ban?.reason ?? '', /127\.0\.0\.1/);

    // bea is unknown here: her Follow is refused before her key is fetched.
    const fetchedBefore = remote.fetched.length;
    const refused = await follow(remote, fed.bea);
    assert.equal(refused.statusCode, 403);
    assert.equal(remote.fetched.length, fetchedBefore, 'no key was fetched');
    // A delivery signed by another domain's key for an actor of the rejected domain is refused too.
    const forged = JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${other.origin}/forged/1`,
      type: 'Follow',
      actor: fed.ana.id,
      object: `${publicUrl}/ap/users/${alice.id}`,
    });
    const asAna = await deliver(t, await other.signedPost(cai, `${publicUrl}/ap/inbox`, forged));
    assert.equal(asAna.statusCode, 403);
    assert.equal(await queued(t), 0);

    // Nothing goes out to the domain; the other domain gets its note.
    const receivedBefore = remote.received.length;
    await sendNoteTo(remote, fed.ana, 'A note for ana');
    await sendNoteTo(other, cai, 'A note for cai');
    assert.equal(remote.received.length, receivedBefore, 'nothing reached the rejected domain');
    assert.equal(notesReceived(other, 'A note for cai').length, 1);
    assert.equal(await queued(t), 0, 'the delivery was dropped, not kept');

    // Lifting the block lifts the ban it made; the follow does not come back.
    assert.equal((await admin('DELETE', '/admin/federation/domain-blocks/127.0.0.1')).statusCode, 204);
    assert.deepEqual(await likers(photo.id), [fed.handleOf(fed.ana)]);
    assert.deepEqual(await followerNames(), [`cai@${new URL(other.origin).host}`]);
    await sendNoteTo(remote, fed.ana, 'A note once lifted');
    assert.equal(notesReceived(remote, 'A note once lifted').length, 1);
  });

  it('silence: its actors reach only the local users who follow them', async () => {
    const bob = await createUser(t, { username: 'bob' });
    const photo = await createMediaRow(t, bob.id);
    await block('127.0.0.2', 'silence');

    // cai follows alice already: that follow stays; a new follow of bob, who does not follow cai, is refused.
    followNumber += 1;
    const toBob = await send(other, cai, 'mastodon-follow', {
      object: `${publicUrl}/ap/users/${bob.id}`,
      followId: `follows/${followNumber}`,
    });
    assert.equal(toBob.statusCode, 202);
    const answer = other.received.find(
      (received) => (received.activity.object as { id?: string })?.id === `${other.origin}/follows/${followNumber}`,
    );
    assert.equal(answer?.activity.type, 'Reject');
    assert.deepEqual(await t.services.areas.follows.follows.counts(bob.id), { followers: 0, following: 0 });

    // cai's like of bob's post is ignored; bob hears nothing of a stranger.
    await send(other, cai, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${photo.id}`, likeNumber: '1' });
    assert.equal((await readMediaRow(t, photo.id)).likesCount, 0);
    const quiet = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: bob.token });
    assert.deepEqual(quiet.json.data, []);

    // Once bob follows cai, cai reaches him.
    await followAccepted(t, bob, other, cai);
    await send(other, cai, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${photo.id}`, likeNumber: '2' });
    assert.equal((await readMediaRow(t, photo.id)).likesCount, 1);
  });

  it("silence: its actor's reply comments only on the post of a local user who follows it", async () => {
    // A server of its own, silenced here alone, so this case stands apart from the ones above.
    const third = await startFediverseServer({ host: '127.0.0.3' });
    try {
      const dee = await third.addActor('mastodon-actor', 'dee');
      const dan = await createUser(t, { username: 'dan' });
      const erin = await createUser(t, { username: 'erin' });
      const dansPhoto = await createMediaRow(t, dan.id);
      const erinsPhoto = await createMediaRow(t, erin.id);
      await block('127.0.0.3', 'silence');
      await followAccepted(t, erin, third, dee);

      const reply = (owner: TestUser, mediaId: string, statusId: string) =>
        send(third, dee, 'mastodon-reply-note', {
          statusId,
          inReplyTo: `${publicUrl}/ap/posts/${mediaId}`,
          ownerActor: `${publicUrl}/ap/users/${owner.id}`,
          ownerProfile: `${publicUrl}/@${owner.username}`,
          ownerName: owner.username,
        });
      assert.equal((await reply(dan, dansPhoto.id, '113254400000000001')).statusCode, 202);
      assert.equal((await reply(erin, erinsPhoto.id, '113254400000000002')).statusCode, 202);

      assert.deepEqual(await commentAuthors(dansPhoto.id), [], 'dan does not follow dee: no comment');
      assert.equal((await readMediaRow(t, dansPhoto.id)).commentsCount, 0);
      assert.deepEqual(await commentAuthors(erinsPhoto.id), [`dee@${new URL(third.origin).host}`]);
      assert.equal((await readMediaRow(t, erinsPhoto.id)).commentsCount, 1);
    } finally {
      await third.close();
    }
  });

  it('reads the blocks once a minute, not once per activity or delivery', async () => {
    t.clock.advance(heldForMs);
    const statements = watchStatements(t.deps.database);
    try {
      for (const like of ['41', '42']) {
        const photo = await createMediaRow(t, alice.id);
        await send(other, cai, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${photo.id}`, likeNumber: like });
      }
      const read = statements.sent.filter((statement) => statement.text.includes('federation_domain_blocks'));
      assert.equal(read.length, 1, read.map((statement) => statement.text).join('\n'));
    } finally {
      statements.restore();
    }
  });
});
