/**
 * Posts sent to the fediverse (docs/api.md, Federation): a Mastodon actor following alice receives,
 * at its shared inbox, a signed Create of her post of three photos (every photo in order, the caption
 * as HTML, hashtags, the city, never the EXIF position), Update after an edit, Delete after a
 * moderator hides it and after a deletion, and the Delete of her actor when her account is erased.
 * The Note is served at /ap/posts/{id} (a browser goes to the post's page) while the post is public,
 * and listed in her outbox; her followers collection counts everyone and lists the remote followers.
 * Nothing is sent for a post that is not public, nor by a user without a remote follower. Fedify's
 * verifyRequest checks each signature over the bytes the remote server received.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyRequest } from '@fedify/fedify';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import {
  drainFederationQueue,
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import { readMediaRow } from '../../../test/helpers/media-factory.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import type { FediverseServer, ReceivedActivity, RemoteActor } from '../../../test/support/fediverse-server.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { toHex } from '../../platform/ids/ids.ts';
import { settleMs } from './outbound/post-sync.ts';

/** Where the photos were taken: in Marseille, far enough from the city's own coordinates to tell them apart. */
const gps = { latitude: 43.2712, longitude: 5.4021 };
const activityJson = { accept: 'application/activity+json' };

type Json = Record<string, any>;

describe('federation: posts sent to remote followers', () => {
  let fed: FederatedTest;
  let t: TestApp;
  let remote: FediverseServer;
  let ana: RemoteActor;
  let alice: TestUser;
  let bob: TestUser;
  /** Every Note body served in this file, for the position check at the end. */
  const served: string[] = [];
  let postId: string;
  let photoIds: string[];

  before(async () => {
    fed = await startFederatedTest();
    ({ t, remote, ana } = fed);
    alice = await createUser(t, { username: 'alice' });
    bob = await createUser(t, { username: 'bob' });
    const followed = await fed.send(ana, 'mastodon-follow', {
      object: `${publicUrl}/ap/users/${alice.id}`,
      followId: crypto.randomUUID(),
    });
    assert.equal(followed.statusCode, 202, followed.body);
  });
  after(() => fed.close());

  const aliceActor = () => `${publicUrl}/ap/users/${alice.id}`;
  const noteUri = (id: string) => `${publicUrl}/ap/posts/${id}`;

  /** What ana's server received from here since `from` (Accepts of her follow aside). */
  const sentSince = (from: number) =>
    remote.received.slice(from).filter((received) => received.activity.type !== 'Accept');

  /** The job federation-queue sends what is due (a post that left the public is, at once) and delivers. */
  async function sendDue(): Promise<void> {
    await t.services.platform.jobs.run('federation-queue');
    await drainFederationQueue(t);
  }

  /** The post's changes settle, then are sent. */
  async function settleAndSend(): Promise<void> {
    t.clock.advance(settleMs + 1000);
    await sendDue();
  }

  /** Each activity received since `from`: its type and its object's id. */
  const kindsSince = (from: number) =>
    sentSince(from).map((received) => [received.activity.type, (received.activity.object as Json).id]);

  async function uploadPhoto(
    user: TestUser,
    size = { width: 1200, height: 900 },
    fields: Record<string, string> = {},
  ): Promise<string> {
    const response = await upload(t, '/api/users/me/media', user.token, await makeJpeg({ ...size, gps }), fields);
    assert.equal(response.statusCode, 201, response.body);
    return response.json.data.id;
  }

  async function note(id: string, accept = activityJson) {
    const response = await t.request({ method: 'GET', url: `/ap/posts/${id}`, headers: accept });
    if (response.statusCode === 200) served.push(response.body);
    return response;
  }

  /** The app's documents for Fedify's verifier (the sender's key is in its actor). */
  async function appDocument(url: string) {
    const asked = new URL(url);
    assert.equal(asked.origin, publicUrl, `only this service's documents are fetched: ${url}`);
    const response = await t.request({ method: 'GET', url: asked.pathname, headers: activityJson });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    return { contextUrl: null, documentUrl: url, document: JSON.parse(response.body) };
  }

  /**
   * The key whose signature the request carries, checked by Fedify over the bytes received; the key is
   * fetched from this service, or read from `kept` (the actor's document as the remote server keeps it).
   */
  async function signer(
    received: ReceivedActivity,
    kept?: { url: string; document: unknown },
  ): Promise<string | undefined> {
    const request = new Request(`${remote.origin}${received.inbox}`, {
      method: 'POST',
      headers: received.headers,
      body: received.body,
    });
    const documentLoader = async (url: string) =>
      kept !== undefined && url.startsWith(kept.url)
        ? { contextUrl: null, documentUrl: url, document: kept.document }
        : appDocument(url);
    const key = await verifyRequest(request, { documentLoader });
    return key?.id?.href;
  }

  it('sends a signed Create of a post of three photos, whole and in order, once it has settled', async () => {
    photoIds = [
      await uploadPhoto(alice, { width: 1200, height: 900 }),
      await uploadPhoto(alice, { width: 900, height: 1200 }),
      await uploadPhoto(alice, { width: 4096, height: 3072 }),
    ];
    const made = await t.request({
      method: 'POST',
      url: '/api/users/me/posts',
      token: alice.token,
      body: {
        caption: 'Sunset over the #Harbour & the <old> port\nsecond line\n\nA new paragraph #VieuxPort',
        photos: photoIds.map((mediaId, index) => ({ mediaId, description: `Photo ${index + 1}, "quoted"` })),
      },
    });
    assert.equal(made.statusCode, 201, made.body);
    postId = made.json.data.id;
    assert.equal(postId, photoIds[0]);
    const from = remote.received.length;
    await sendDue();
    assert.deepEqual(sentSince(from), [], 'nothing before the post has settled');

    await settleAndSend();
    const [create, ...others] = sentSince(from);
    assert.deepEqual(others, [], 'one activity: the photos uploaded first were never sent apart');
    assert.ok(create);
    assert.equal(create.inbox, '/inbox', "ana's server's shared inbox");
    assert.equal(await signer(create), `${aliceActor()}#main-key`, 'signed by alice, over the bytes sent');

    const activity = create.activity as Json;
    assert.equal(activity.type, 'Create');
    assert.equal(activity.actor, aliceActor());
    const object = activity.object as Json;
    const lead = await readMediaRow(t, postId);
    assert.equal(object.type, 'Note');
    assert.equal(object.id, noteUri(postId));
    assert.equal(object.attributedTo, aliceActor());
    assert.ok(['as:Public', 'https://www.w3.org/ns/activitystreams#Public'].includes(object.to), object.to);
    assert.equal(object.cc, `${aliceActor()}/followers`);
    assert.equal(object.url, `${publicUrl}/posts/${toHex(postId)}`);
    assert.equal(
      object.content,
      '<p>Sunset over the <a href="https://travel.example/tags/harbour" class="mention hashtag" rel="tag">#<span>Harbour</span></a> &amp; the &lt;old&gt; port<br>second line</p>' +
        '<p>A new paragraph <a href="https://travel.example/tags/vieuxport" class="mention hashtag" rel="tag">#<span>VieuxPort</span></a></p>',
    );
    assert.equal(object.sensitive, false);
    assert.equal(new Date(object.published).getTime(), lead.createdAt.getTime());
    assert.equal(object.updated, undefined, 'not shown as edited');
    assert.deepEqual(
      (object.attachment as Json[]).map((image) => [
        image.type,
        image.url,
        image.mediaType,
        image.width,
        image.height,
        image.name,
      ]),
      [
        [
          'Image',
          `${publicUrl}/media/${toHex(photoIds[0]!)}.webp?size=large`,
          'image/webp',
          1200,
          900,
          'Photo 1, "quoted"',
        ],
        [
          'Image',
          `${publicUrl}/media/${toHex(photoIds[1]!)}.webp?size=large`,
          'image/webp',
          900,
          1200,
          'Photo 2, "quoted"',
        ],
        [
          'Image',
          `${publicUrl}/media/${toHex(photoIds[2]!)}.webp?size=large`,
          'image/webp',
          2048,
          1536,
          'Photo 3, "quoted"',
        ],
      ],
    );
    assert.deepEqual(
      (object.tag as Json[]).map((tag) => [tag.type, tag.name, tag.href]),
      [
        ['Hashtag', '#harbour', `${publicUrl}/tags/harbour`],
        ['Hashtag', '#vieuxport', `${publicUrl}/tags/vieuxport`],
      ],
    );
    assert.ok(lead.cityId, 'the photo was placed in a city');
    const city = await t.services.areas.geography.geography.cityById(lead.cityId);
    assert.ok(city);
    const place = object.location as Json;
    assert.deepEqual(
      [place.type, place.name, place.latitude, place.longitude],
      ['Place', city.name, city.latitude, city.longitude],
    );
  });

  it('serves the Note at its URI while the post is public, and sends a browser to the post page', async () => {
    const response = await note(postId);
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /application\/activity\+json/);
    const served = JSON.parse(response.body) as Json;
    assert.equal(served.type, 'Note');
    assert.equal(served.id, noteUri(postId));
    assert.equal((served.attachment as Json[]).length, 3);

    const page = await note(postId, { accept: 'text/html' });
    assert.equal(page.statusCode, 302);
    assert.equal(page.headers.location, `${publicUrl}/posts/${toHex(postId)}`);

    assert.equal((await note(photoIds[1]!)).statusCode, 404, 'a member of a post is not a post');
    assert.equal((await note(crypto.randomUUID())).statusCode, 404);

    const actor = await t.request({ method: 'GET', url: `/ap/users/${alice.id}`, headers: activityJson });
    assert.equal(JSON.parse(actor.body).followers, `${aliceActor()}/followers`);
    assert.equal(JSON.parse(actor.body).outbox, `${aliceActor()}/outbox`);
  });

  it("lists alice's public posts in her outbox, each as the Create of its Note", async () => {
    const outbox = await t.request({ method: 'GET', url: `/ap/users/${alice.id}/outbox`, headers: activityJson });
    assert.equal(outbox.statusCode, 200, outbox.body);
    const first = new URL(JSON.parse(outbox.body).first as string);
    const page = await t.request({ method: 'GET', url: `${first.pathname}${first.search}`, headers: activityJson });
    assert.equal(page.statusCode, 200, page.body);
    served.push(page.body);
    const items = [JSON.parse(page.body).orderedItems].flat() as Json[];
    assert.deepEqual(
      items.map((item) => [item.type, item.id, (item.object as Json).id, (item.object as Json).attachment.length]),
      [['Create', `${noteUri(postId)}#create`, noteUri(postId), 3]],
      'the post once: its other photos are not posts',
    );
    const unknown = await t.request({
      method: 'GET',
      url: `/ap/users/${alice.id}/outbox?cursor=nonsense`,
      headers: activityJson,
    });
    assert.equal(unknown.statusCode, 404);
  });

  it("answers alice's followers collection: a count for anyone, the remote followers' actors", async () => {
    const local = await t.request({ method: 'POST', url: `/api/users/me/following/${alice.id}`, token: bob.token });
    assert.ok([200, 201].includes(local.statusCode), local.body);
    const response = await t.request({ method: 'GET', url: `/ap/users/${alice.id}/followers`, headers: activityJson });
    assert.equal(response.statusCode, 200, response.body);
    const collection = JSON.parse(response.body) as Json;
    assert.equal(collection.type, 'OrderedCollection');
    assert.equal(collection.totalItems, 2, 'ana and bob');
    const first = new URL(collection.first as string);
    const page = await t.request({ method: 'GET', url: `${first.pathname}${first.search}`, headers: activityJson });
    assert.equal(page.statusCode, 200, page.body);
    assert.deepEqual([JSON.parse(page.body).orderedItems].flat(), [ana.id]);
    const unknown = await t.request({
      method: 'GET',
      url: `/ap/users/${crypto.randomUUID()}/followers`,
      headers: activityJson,
    });
    assert.equal(unknown.statusCode, 404);
  });

  it('sends one Update after edits of the caption, an alt text and the content warning, none for an edit that changes nothing', async () => {
    const from = remote.received.length;
    const edited = await t.request({
      method: 'PATCH',
      url: `/api/users/me/posts/${postId}`,
      token: alice.token,
      body: { caption: 'Sunset, edited #harbour', photos: [{ mediaId: photoIds[1], description: 'The lighthouse' }] },
    });
    assert.equal(edited.statusCode, 200, edited.body);
    const warned = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${postId}/content-warning`,
      token: alice.token,
      body: { sensitive: true, contentWarning: 'Crowds at sunset' },
    });
    assert.equal(warned.statusCode, 200, warned.body);
    await settleAndSend();
    const [update, ...others] = sentSince(from);
    assert.deepEqual(others, []);
    assert.equal(update?.activity.type, 'Update');
    assert.equal(await signer(update!), `${aliceActor()}#main-key`);
    const object = update?.activity.object as Json;
    assert.equal(object.id, noteUri(postId));
    assert.match(object.content as string, /^<p>Sunset, edited <a href/);
    assert.deepEqual([object.sensitive, object.summary], [true, 'Crowds at sunset']);
    assert.equal(typeof object.updated, 'string', 'an Update says when the post was edited');
    assert.deepEqual(
      (object.attachment as Json[]).map((image) => image.name),
      ['Photo 1, "quoted"', 'The lighthouse', 'Photo 3, "quoted"'],
    );

    const again = remote.received.length;
    const same = await t.request({
      method: 'PATCH',
      url: `/api/users/me/posts/${postId}`,
      token: alice.token,
      body: { caption: 'Sunset, edited #harbour' },
    });
    assert.equal(same.statusCode, 200, same.body);
    await settleAndSend();
    assert.deepEqual(sentSince(again), []);
  });

  it('sends Delete at once when a moderator hides the post, and stops serving its Note', async () => {
    const from = remote.received.length;
    const hidden = await t.request({
      method: 'PUT',
      url: `/admin/media/${toHex(postId)}/flag`,
      token: adminToken,
      body: { flag: 2 },
    });
    assert.equal(hidden.statusCode, 200, hidden.body);
    await sendDue();
    const [deleted, ...others] = sentSince(from);
    assert.deepEqual(others, []);
    assert.ok(deleted);
    assert.equal(deleted.activity.type, 'Delete');
    assert.equal(await signer(deleted), `${aliceActor()}#main-key`);
    const tombstone = deleted.activity.object as Json;
    assert.deepEqual([tombstone.type, tombstone.id], ['Tombstone', noteUri(postId)]);
    assert.equal((await note(postId)).statusCode, 404);
  });

  it('sends Create (no place for a position kept private), then Delete when the author deletes the post', async () => {
    const from = remote.received.length;
    const single = await uploadPhoto(alice, undefined, { locationPublic: 'false', description: 'Quiet #harbour' });
    await settleAndSend();
    assert.deepEqual(kindsSince(from), [['Create', noteUri(single)]]);
    const created = sentSince(from)[0]?.activity.object as Json;
    assert.ok((await readMediaRow(t, single)).cityId, 'placed in a city, kept private');
    assert.equal(created.location, undefined);
    assert.equal((created.attachment as Json[]).length, 1);
    const removed = await t.request({ method: 'DELETE', url: `/api/users/me/posts/${single}`, token: alice.token });
    assert.equal(removed.statusCode, 204, removed.body);
    await sendDue();
    assert.deepEqual(kindsSince(from), [
      ['Create', noteUri(single)],
      ['Delete', noteUri(single)],
    ]);
  });

  it('sends Delete at once when a sent post is unpublished', async () => {
    const from = remote.received.length;
    const photo = await uploadPhoto(alice);
    await settleAndSend();
    const unpublished = await t.request({
      method: 'PUT',
      url: `/admin/media/${toHex(photo)}/published`,
      token: adminToken,
      body: { published: false },
    });
    assert.equal(unpublished.statusCode, 200, unpublished.body);
    await sendDue();
    assert.deepEqual(kindsSince(from), [
      ['Create', noteUri(photo)],
      ['Delete', noteUri(photo)],
    ]);
  });

  it('sends nothing for a post unpublished before it settled, nor for a user without a remote follower', async () => {
    const from = remote.received.length;
    const unpublished = await uploadPhoto(alice);
    const response = await t.request({
      method: 'PUT',
      url: `/admin/media/${toHex(unpublished)}/published`,
      token: adminToken,
      body: { published: false },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal((await note(unpublished)).statusCode, 404);
    const bobs = await uploadPhoto(bob);
    await settleAndSend();
    assert.deepEqual(sentSince(from), []);
    assert.equal((await note(bobs)).statusCode, 200, "bob's post is public: served, only not sent");
  });

  it("sends the Delete of alice's actor when her account is erased, signed with her key", async () => {
    const from = remote.received.length;
    const asked = await t.request({
      method: 'DELETE',
      url: '/api/users/me',
      token: alice.token,
      body: { password: strongPassword },
    });
    assert.equal(asked.statusCode, 202, asked.body);
    await t.services.areas.accounts.mailFlows.drain();
    const token = /tmd_[A-Za-z0-9_-]+/.exec(t.mail.last(alice.email)?.text ?? '')?.[0];
    const kept = {
      url: aliceActor(),
      document: JSON.parse(
        (await t.request({ method: 'GET', url: `/ap/users/${alice.id}`, headers: activityJson })).body,
      ),
    };
    const confirmed = await t.request({ method: 'POST', url: '/api/account/deletion/confirm', body: { token } });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    t.clock.advance((t.deps.config.accountDeletionGraceDays + 1) * 24 * 60 * 60 * 1000);
    const erased = await t.request({ method: 'POST', url: '/admin/jobs/flush/account-erasure', token: adminToken });
    assert.equal(erased.statusCode, 200, erased.body);
    assert.equal(erased.json.data.attributes.report.erased, 1);
    await sendDue();
    const [deleted, ...others] = sentSince(from);
    assert.deepEqual(others, [], 'no Delete of each post: the actor takes them along');
    assert.equal(deleted?.activity.type, 'Delete');
    assert.equal(deleted?.activity.actor, aliceActor());
    assert.equal(deleted?.activity.object, aliceActor());
    assert.equal(deleted?.inbox, '/inbox');
    // Her actor answers 404 now: ana's server checks the signature with the key it keeps.
    assert.equal(await signer(deleted!, kept), `${aliceActor()}#main-key`);
    const gone = await t.request({ method: 'GET', url: `/ap/users/${alice.id}`, headers: activityJson });
    assert.equal(gone.statusCode, 404);
  });

  it('never lets the EXIF position out: in no activity received, in no Note served', async () => {
    // The position's first decimals (the stored value may differ in the last ones, from the EXIF's degrees).
    const positions = ['43.271', '5.402'];
    const everything = [...remote.received.map((received) => received.body), ...served];
    assert.ok(everything.length >= 8);
    // Times are left out: a signature made at 12:33:35.402 holds the digits 5.402.
    const times = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g;
    for (const body of everything) {
      const untimed = body.replace(times, '<time>');
      for (const position of positions) assert.ok(!untimed.includes(position), `${position} in ${body}`);
    }
  });
});
