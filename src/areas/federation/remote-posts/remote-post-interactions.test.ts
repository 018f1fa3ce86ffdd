/**
 * Liking and replying to remote posts (docs/api.md, Federation): PUT/DELETE
 * /api/users/me/remote-posts/{postId}/like sends Like and Undo(Like), POST .../replies sends a
 * Create(Note) in reply to the post, each to the author's inbox at the fediverse stand-in, signed by
 * the local user's actor (the signature checked against the key the app serves); the list shows the
 * like and the replies kept. With FEDERATION off nothing can be sent (409).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RemoteDocument } from '@fedify/fedify';
import { verifyRequest } from '@fedify/fedify';
import { createTestApp } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import {
  drainFederationQueue,
  type FederatedTest,
  followAccepted,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../../test/helpers/fediverse-inbox.ts';
import type { ReceivedActivity, RemoteActor } from '../../../../test/support/fediverse-server.ts';

describe('federation: likes and replies of remote posts', () => {
  let fed: FederatedTest;
  let carol: TestUser;
  let postId: string;
  let postUri: string;
  let anaId: string;

  before(async () => {
    fed = await startFederatedTest();
    carol = await createUser(fed.t, { username: 'carol' });
    anaId = await followAccepted(fed.t, fed.remote, carol.id, fed.ana);
    postUri = await postOf(fed.ana, '113254300000000001');
    postId = (await listed(carol)).find((post) => post.attributes.uri === postUri)?.id ?? '';
    assert.ok(postId);
  });
  after(() => fed.close());

  async function postOf(actor: RemoteActor, statusId: string): Promise<string> {
    const published = new Date(fed.t.clock.now().getTime() - 60_000).toISOString();
    const response = await fed.send(actor, 'mastodon-create-post', { statusId, published });
    assert.equal(response.statusCode, 202, response.body);
    return `${actor.id}/statuses/${statusId}`;
  }

  async function listed(user: TestUser) {
    const response = await fed.t.request({
      method: 'GET',
      url: '/api/users/me/following/remote-posts',
      token: user.token,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data as {
      id: string;
      attributes: { uri: string; likedByMe: boolean; myReplies: { id: string; text: string }[] };
    }[];
  }

  /** The activities the stand-in received since `from`, once the app's queue has delivered them. */
  async function receivedSince(from: number): Promise<ReceivedActivity[]> {
    await drainFederationQueue(fed.t);
    return fed.remote.received.slice(from);
  }

  /** The actor whose key signed the delivery, its key fetched from the app as a remote server would. */
  async function signerOf(received: ReceivedActivity): Promise<string | null> {
    const request = new Request(`${fed.remote.origin}${received.inbox}`, {
      method: 'POST',
      headers: received.headers,
      body: received.body,
    });
    const key = await verifyRequest(request, {
      documentLoader: async (url: string): Promise<RemoteDocument> => {
        const { pathname } = new URL(url);
        assert.ok(url.startsWith(publicUrl), url);
        const response = await fed.t.request({
          method: 'GET',
          url: pathname,
          headers: { accept: 'application/activity+json' },
        });
        assert.equal(response.statusCode, 200, response.body);
        return { contextUrl: null, documentUrl: url, document: JSON.parse(response.body) };
      },
    });
    return key?.ownerId?.href ?? null;
  }

  /** The rows of a section of the user's data export. */
  async function exported(user: TestUser, name: string): Promise<Record<string, unknown>[]> {
    const section = fed.t.services.platform.exports.sections().find((candidate) => candidate.name === name);
    assert.ok(section, name);
    const rows: Record<string, unknown>[] = [];
    for await (const row of section.rows(user.id)) rows.push(row);
    return rows;
  }

  const carolActor = () => `${publicUrl}/ap/users/${carol.id}`;
  const like = (method: 'PUT' | 'DELETE', id = postId, token = carol.token) =>
    fed.t.request({ method, url: `/api/users/me/remote-posts/${id}/like`, token });

  it("sends a signed Like to the author's inbox, once, and shows the post liked", async () => {
    const from = fed.remote.received.length;
    const response = await like('PUT');
    assert.equal(response.statusCode, 204, response.body);
    assert.equal((await like('PUT')).statusCode, 204, 'liking again is fine');
    const received = await receivedSince(from);
    assert.deepEqual(
      received.map(({ inbox, activity }) => ({ inbox, type: activity.type, object: activity.object })),
      [{ inbox: '/users/ana/inbox', type: 'Like', object: postUri }],
      'one Like, to the author',
    );
    const [delivery] = received;
    assert.ok(delivery);
    assert.equal(delivery.activity.actor, carolActor());
    assert.equal(await signerOf(delivery), carolActor(), "signed with carol's key");
    assert.equal((await listed(carol)).find((post) => post.id === postId)?.attributes.likedByMe, true);
    assert.deepEqual(
      (await exported(carol, 'remote-post-likes')).map((row) => row.postUri),
      [postUri],
    );
  });

  it('sends Undo(Like) of that Like when the like is taken back, once', async () => {
    const liked = fed.remote.received.find((received) => received.activity.type === 'Like');
    assert.ok(liked);
    const from = fed.remote.received.length;
    assert.equal((await like('DELETE')).statusCode, 204);
    assert.equal((await like('DELETE')).statusCode, 204, 'idempotent');
    const received = await receivedSince(from);
    assert.equal(received.length, 1);
    const [undo] = received;
    assert.ok(undo);
    assert.equal(undo.activity.type, 'Undo');
    const object = undo.activity.object as { id: string; type: string; object: string };
    assert.deepEqual(
      { id: object.id, type: object.type, object: object.object },
      {
        id: liked.activity.id,
        type: 'Like',
        object: postUri,
      },
    );
    assert.equal(await signerOf(undo), carolActor());
    assert.equal((await listed(carol)).find((post) => post.id === postId)?.attributes.likedByMe, false);
  });

  it('sends a reply as a signed Create(Note) in reply to the post, to its author, and keeps it', async () => {
    const from = fed.remote.received.length;
    const response = await fed.t.request({
      method: 'POST',
      url: `/api/users/me/remote-posts/${postId}/replies`,
      token: carol.token,
      body: { text: '  What a light! <3 \n\nSee you there.  ' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const reply = response.json.data;
    assert.equal(reply.type, 'remote-post-replies');
    assert.equal(reply.attributes.text, 'What a light! <3 \n\nSee you there.');
    assert.equal(reply.attributes.uri, `${publicUrl}/ap/replies/${reply.id}`);
    assert.equal(reply.relationships.post.data.id, postId);

    const received = await receivedSince(from);
    assert.equal(received.length, 1);
    const [delivery] = received;
    assert.ok(delivery);
    assert.equal(delivery.inbox, '/users/ana/inbox');
    assert.equal(delivery.activity.type, 'Create');
    assert.equal(await signerOf(delivery), carolActor());
    const note = delivery.activity.object as Record<string, unknown>;
    assert.equal(note.type, 'Note');
    assert.equal(note.id, reply.attributes.uri);
    assert.equal(note.inReplyTo, postUri);
    assert.equal(note.attributedTo, carolActor());
    assert.deepEqual([note.to].flat(), [fed.ana.id]);
    assert.equal(note.content, '<p>What a light! &lt;3 </p><p>See you there.</p>');
    assert.deepEqual(
      [note.tag].flat().map((tag) => (tag as { type: string; href: string }).href),
      [fed.ana.id],
      'the author is mentioned',
    );

    const post = (await listed(carol)).find((item) => item.id === postId);
    assert.deepEqual(
      post?.attributes.myReplies.map(({ id, text }) => ({ id, text })),
      [{ id: reply.id, text: reply.attributes.text }],
    );
    assert.deepEqual(
      (await exported(carol, 'remote-post-replies')).map(({ inReplyTo, text }) => ({ inReplyTo, text })),
      [{ inReplyTo: postUri, text: reply.attributes.text }],
      'in her data export',
    );
  });

  it('refuses an empty reply (422), an unknown post (404), a blocked author (404) and no credential (401)', async () => {
    const from = fed.remote.received.length;
    const empty = await fed.t.request({
      method: 'POST',
      url: `/api/users/me/remote-posts/${postId}/replies`,
      token: carol.token,
      body: { text: ' \u200b ' },
    });
    assert.equal(empty.statusCode, 422, empty.body);
    assert.equal((await like('PUT', crypto.randomUUID())).statusCode, 404);
    assert.equal((await like('PUT', 'not-a-uuid')).statusCode, 422);
    assert.equal(
      (await fed.t.request({ method: 'PUT', url: `/api/users/me/remote-posts/${postId}/like` })).statusCode,
      401,
    );

    const dave = await createUser(fed.t, { username: 'dave' });
    const block = await fed.t.request({ method: 'PUT', url: `/api/users/me/blocks/${anaId}`, token: dave.token });
    assert.equal(block.statusCode, 200, block.body);
    assert.equal((await like('PUT', postId, dave.token)).statusCode, 404);
    assert.deepEqual(await receivedSince(from), [], 'nothing sent');
  });

  it('lets a user who does not follow the author like a kept post by its id', async () => {
    const erin = await createUser(fed.t, { username: 'erin' });
    const from = fed.remote.received.length;
    assert.equal((await like('PUT', postId, erin.token)).statusCode, 204);
    const [delivery] = await receivedSince(from);
    assert.equal(delivery?.activity.actor, `${publicUrl}/ap/users/${erin.id}`);
  });
});

describe('remote posts with FEDERATION off', () => {
  it('refuses a like and a reply (409 federationOff): nothing can be sent', async () => {
    const t = await createTestApp();
    try {
      const user = await createUser(t, { username: 'olga' });
      const id = crypto.randomUUID();
      const liked = await t.request({ method: 'PUT', url: `/api/users/me/remote-posts/${id}/like`, token: user.token });
      assert.equal(liked.statusCode, 409, liked.body);
      assert.equal(liked.json.errors[0].code, 'federationOff');
      const replied = await t.request({
        method: 'POST',
        url: `/api/users/me/remote-posts/${id}/replies`,
        token: user.token,
        body: { text: 'hello' },
      });
      assert.equal(replied.statusCode, 409, replied.body);
      const list = await t.request({ method: 'GET', url: '/api/users/me/following/remote-posts', token: user.token });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json.data, []);
    } finally {
      await t.close();
    }
  });
});
