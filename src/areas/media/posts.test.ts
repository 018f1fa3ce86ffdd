/**
 * Posts of several photos (docs/api.md, Posts): made from the owner's uploaded photos, read as one
 * post anchored by its lead, changed (order, photos out and in, texts, caption) and deleted; the
 * members never listed on their own; bad input refused with nothing changed; the lead's moderation
 * carried to every photo; the export.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { readZip } from '../../../test/helpers/zip.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { toHex } from '../../platform/ids/ids.ts';

const lyon = { latitude: 45.764, longitude: 4.8357 };

interface PostPhoto {
  id: string;
  order: number;
  description: string | null;
}

describe('posts of several photos', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  before(async () => {
    t = await createTestApp();
    ada = await createUser(t, { username: 'ada' });
    bob = await createUser(t, { username: 'bob' });
  });
  after(() => t.close());

  /** Photos uploaded by the owner, not in a post yet (rows only: these tests read no file). */
  const photos = async (count: number, owner = ada, fields = {}) => {
    const rows = [];
    for (let index = 0; index < count; index += 1) {
      rows.push(await createMediaRow(t, owner.id, { ...lyon, hashtags: [], description: null, ...fields }));
    }
    return rows.map((row) => row.id);
  };
  const makePost = (ids: string[], extra: Record<string, unknown> = {}, token = ada.token) =>
    t.request({
      method: 'POST',
      url: '/api/users/me/posts',
      token,
      body: { photos: ids.map((mediaId) => ({ mediaId })), ...extra },
    });
  const patch = (postId: string, body: Record<string, unknown>, token = ada.token) =>
    t.request({ method: 'PATCH', url: `/api/users/me/posts/${postId}`, token, body });
  const getPost = (postId: string, token?: string) => t.request({ method: 'GET', url: `/api/posts/${postId}`, token });
  const photoIds = (res: { json: { data: { attributes: { photos: PostPhoto[] } } } }) =>
    res.json.data.attributes.photos.map((photo) => photo.id);
  const listedIds = async (url: string, token?: string) =>
    ((await t.request({ method: 'GET', url, token })).json.data as Array<{ id: string }>).map((item) => item.id);
  /** What a refused request must leave as it was: every field of every row named. */
  const snapshot = (ids: string[]) => Promise.all(ids.map((id) => readMediaRow(t, id)));

  it('makes a post of photos in order, with a caption and each photo its own text', async () => {
    const [first, second, third] = await photos(3);
    const res = await t.request({
      method: 'POST',
      url: '/api/users/me/posts',
      token: ada.token,
      body: {
        photos: [
          { mediaId: first, description: 'The old town from Fourvière' },
          { mediaId: toHex(second!) },
          { mediaId: third, description: 'Bouchon lunch' },
        ],
        caption: 'A weekend in #Lyon with @bob #food',
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const post = res.json.data;
    assert.equal(post.type, 'posts');
    assert.equal(post.id, first, "the post's id is its lead photo's");
    assert.equal(post.attributes.caption, 'A weekend in #Lyon with @bob #food');
    assert.deepEqual(post.attributes.hashtags, ['lyon', 'food']);
    assert.equal(post.attributes.photosCount, 3);
    assert.deepEqual(photoIds(res), [first, second, third]);
    assert.deepEqual(
      post.attributes.photos.map((photo: PostPhoto) => [photo.order, photo.description]),
      [
        [0, 'The old town from Fourvière'],
        [1, null],
        [2, 'Bouchon lunch'],
      ],
    );
    assert.deepEqual(post.relationships.lead.data, { type: 'media', id: first });

    const read = await getPost(first!);
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(photoIds(read), [first, second, third], 'anyone reads it');
    const byMember = await getPost(third!);
    assert.equal(byMember.json.data.id, first, "a member's id gives its post");
  });

  it('lists a post once, by its lead, wherever media are listed; the lead carries its photos count', async () => {
    const [lead, member] = await photos(2);
    assert.equal((await makePost([lead!, member!], { caption: 'Croix-Rousse #traboules' })).statusCode, 201);
    const everyone = await listedIds(`/api/users/${ada.id}/media?limit=100`);
    assert.ok(everyone.includes(lead!));
    assert.equal(everyone.includes(member!), false, 'not in the public list of her media');
    assert.equal((await listedIds('/api/users/me/media?limit=100', ada.token)).includes(member!), false);
    const nearby = await listedIds(`/api/media/nearby?lat=${lyon.latitude}&lng=${lyon.longitude}&distance=5000`);
    assert.ok(nearby.includes(lead!));
    assert.equal(nearby.includes(member!), false, 'nor nearby');
    const listed = await t.request({ method: 'GET', url: `/api/users/${ada.id}/media?limit=100` });
    const shown = listed.json.data.find((item: { id: string }) => item.id === lead);
    assert.equal(shown.attributes.photosCount, 2, 'an extension attribute on the lead');
    assert.deepEqual(shown.relationships.post.data, { type: 'posts', id: lead });
  });

  it('the map shows one marker per post, at its first photo placed in public', async () => {
    const erin = await createUser(t, { username: 'erin' });
    const unplaced = { latitude: null, longitude: null };
    const [lead] = await photos(1, erin, unplaced);
    const [hidden] = await photos(1, erin, { latitude: 45.75, longitude: 4.85, locationPublic: false });
    const [placed, later] = await photos(2, erin, { latitude: 45.76, longitude: 4.83 });
    assert.equal((await makePost([lead!, hidden!, placed!, later!], {}, erin.token)).statusCode, 201);
    const box = 'south=45.7&west=4.8&north=45.8&east=4.9&limit=100';
    const onMap = async () => {
      const res = await t.request({ method: 'GET', url: `/api/media/in-bounds?${box}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json.meta.mode, 'media');
      return (res.json.data as Array<{ id: string; relationships: { post: { data: { id: string } } } }>).filter(
        (item) => [lead, hidden, placed, later].includes(item.id),
      );
    };
    const markers = await onMap();
    assert.deepEqual(
      markers.map((item) => item.id),
      [placed],
      'its first photo whose position is public, though not the lead',
    );
    assert.equal(markers[0]!.relationships.post.data.id, lead, 'which leads to the post');

    assert.equal((await patch(lead!, { order: [lead, later, hidden, placed] }, erin.token)).statusCode, 200);
    assert.deepEqual(
      (await onMap()).map((item) => item.id),
      [later],
      'the marker follows the order',
    );
  });

  it("a user's posts come newest first in keyset pages, with their photos", async () => {
    const carol = await createUser(t, { username: 'carol' });
    const [a1, a2, b1] = await photos(3, carol);
    assert.equal((await makePost([a1!, a2!], {}, carol.token)).statusCode, 201);
    const first = await t.request({ method: 'GET', url: `/api/users/${carol.id}/posts?limit=1` });
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(
      first.json.data.map((post: { id: string }) => post.id),
      [b1],
      'the newest photo, a post of one',
    );
    assert.deepEqual(first.json.data[0].attributes.photos.length, 1);
    const second = await t.request({ method: 'GET', url: first.json.links.next });
    assert.deepEqual(
      second.json.data.map((post: { id: string }) => post.id),
      [a1],
    );
    assert.deepEqual(photoIds({ json: { data: second.json.data[0] } }), [a1, a2]);
    assert.equal(second.json.links.next, null);
  });

  it('refuses a post of 0 or 11 photos, of a photo repeated or not hers, or already in a post: nothing changes', async () => {
    const eleven = await photos(11);
    const [bobs] = await photos(1, bob);
    const before = await snapshot([...eleven, bobs!]);
    const refusals: Array<[Record<string, unknown>, number, string, string]> = [
      [{ photos: [] }, 422, 'validationFailed', '/photos'],
      [{ photos: eleven.map((mediaId) => ({ mediaId })) }, 422, 'validationFailed', '/photos'],
      [{ photos: [{ mediaId: eleven[0] }, { mediaId: eleven[0] }] }, 422, 'validationFailed', '/photos/1/mediaId'],
      [{ photos: [{ mediaId: eleven[0] }, { mediaId: bobs }] }, 404, 'notFound', '/photos/1/mediaId'],
      [{ photos: [{ mediaId: 'not-an-id' }] }, 422, 'invalidId', '/photos/0/mediaId'],
    ];
    for (const [body, status, code, pointer] of refusals) {
      const res = await t.request({ method: 'POST', url: '/api/users/me/posts', token: ada.token, body });
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.json.errors[0].code, code);
      assert.equal(res.json.errors[0].source.pointer, pointer);
    }
    assert.deepEqual(await snapshot([...eleven, bobs!]), before, 'no row changed');

    assert.equal((await makePost([eleven[0]!, eleven[1]!])).statusCode, 201);
    const inPost = await snapshot(eleven);
    for (const ids of [
      [eleven[2]!, eleven[1]!],
      [eleven[0]!, eleven[3]!],
    ]) {
      const res = await makePost(ids);
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json.errors[0].code, 'photoInPost');
    }
    assert.deepEqual(await snapshot(eleven), inPost, 'a photo is in one post at most, and nothing changed');
    assert.equal((await makePost([eleven[0]!], {}, bob.token)).statusCode, 404, "someone else's photo");
  });

  it('reorders, removes one, adds one, edits the caption and the texts', async () => {
    const [lead, second, third, extra] = await photos(4);
    const made = await makePost([lead!, second!, third!], { caption: 'Saône banks' });
    assert.equal(made.statusCode, 201, made.body);

    const reordered = await patch(lead!, { order: [third, lead, second] });
    assert.equal(reordered.statusCode, 200, reordered.body);
    assert.deepEqual(photoIds(reordered), [third, lead, second], 'the lead need not come first');
    assert.equal(reordered.json.data.id, lead, 'the anchor stays');

    const changed = await patch(lead!, {
      remove: [second],
      add: [{ mediaId: extra, description: 'Night on the Rhône' }],
      photos: [{ mediaId: lead, description: 'Place Bellecour' }],
      caption: 'Saône and Rhône #rivers',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(photoIds(changed), [third, lead, extra]);
    assert.deepEqual(
      changed.json.data.attributes.photos.map((photo: PostPhoto) => photo.description),
      [null, 'Place Bellecour', 'Night on the Rhône'],
    );
    assert.deepEqual(changed.json.data.attributes.hashtags, ['rivers']);
    assert.ok(
      (await listedIds(`/api/users/${ada.id}/media?limit=100`)).includes(second!),
      'a removed photo is a photo of its own again',
    );
    const leadRow = await readMediaRow(t, lead!);
    assert.equal(leadRow.photosCount, 3);
    assert.equal(leadRow.description, 'Saône and Rhône #rivers', "the caption is the lead's description");
    assert.equal(leadRow.altText, 'Place Bellecour');

    const single = (await photos(1))[0]!;
    const grown = await patch(single, { add: [{ mediaId: second }] });
    assert.equal(grown.statusCode, 200, grown.body);
    assert.deepEqual(photoIds(grown), [single, second], 'a photo of its own is a post of one, to which one adds');
  });

  it('refuses an order that loses or repeats a photo, removing the lead, and more than 10: nothing changes', async () => {
    const ids = await photos(3);
    const [lead, second, third] = ids;
    const others = await photos(8);
    assert.equal((await makePost(ids)).statusCode, 201);
    const [elsewhere] = await photos(1);
    assert.equal((await makePost([elsewhere!])).statusCode, 201);
    const before = await snapshot([...ids, ...others, elsewhere!]);
    const refusals: Array<[Record<string, unknown>, number, string, string]> = [
      [{ order: [lead, second] }, 422, 'validationFailed', '/order'],
      [{ order: [lead, second, second] }, 422, 'validationFailed', '/order/2'],
      [{ order: [lead, second, third, others[0]] }, 422, 'validationFailed', '/order'],
      [{ remove: [lead] }, 409, 'postLeadRemoval', '/remove/0'],
      [{ remove: [others[0]] }, 422, 'validationFailed', '/remove/0'],
      [{ add: others.map((mediaId) => ({ mediaId })) }, 422, 'validationFailed', '/add'],
      [{ add: [{ mediaId: elsewhere }] }, 409, 'photoInPost', '/add/0/mediaId'],
      [{ add: [{ mediaId: third }] }, 409, 'photoInPost', '/add/0/mediaId'],
      [{ photos: [{ mediaId: others[0], description: 'x' }] }, 422, 'validationFailed', '/photos/0/mediaId'],
      [{ remove: [second], order: [lead, second, third] }, 422, 'validationFailed', '/order'],
    ];
    for (const [body, status, code, pointer] of refusals) {
      const res = await patch(lead!, body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json.errors[0].code, code);
      assert.equal(res.json.errors[0].source.pointer, pointer);
    }
    assert.equal((await patch(lead!, { order: [second, lead, third] }, bob.token)).statusCode, 404, "not bob's post");
    assert.equal((await patch(second!, { caption: 'x' })).statusCode, 404, 'a member is not a post');
    assert.deepEqual(await snapshot([...ids, ...others, elsewhere!]), before, 'no row changed');
  });

  it("reactions, comments and bookmarks on the post's id are the post's", async () => {
    const [lead, member] = await photos(2);
    assert.equal((await makePost([lead!, member!])).statusCode, 201);
    const like = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${lead}/reaction`,
      token: bob.token,
      body: { type: 'like' },
    });
    assert.ok(like.statusCode < 300, like.body);
    const comment = await t.request({
      method: 'POST',
      url: `/api/media/${lead}/comments`,
      token: bob.token,
      body: { body: 'Lovely light' },
    });
    assert.equal(comment.statusCode, 201, comment.body);
    const bookmark = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${lead}/bookmark`,
      token: bob.token,
      body: {},
    });
    assert.ok(bookmark.statusCode < 300, bookmark.body);
    const read = await getPost(lead!);
    assert.equal(read.json.data.attributes.likesCount, 1);
    assert.equal(read.json.data.attributes.commentsCount, 1);
    assert.equal(read.json.data.attributes.bookmarksCount, 1);
    const bookmarked = await listedIds('/api/users/me/bookmarks', bob.token);
    assert.deepEqual(bookmarked, [lead], 'the post is in his bookmarks, by its lead');
  });

  it('hiding the lead hides the post and all its photos; showing it again shows them', async () => {
    const [lead, member] = await photos(2);
    assert.equal((await makePost([lead!, member!])).statusCode, 201);
    const hide = await t.request({
      method: 'PUT',
      url: `/admin/media/${toHex(lead!)}/flag`,
      token: adminToken,
      body: { flag: 2 },
    });
    assert.equal(hide.statusCode, 200, hide.body);
    assert.equal((await getPost(lead!)).statusCode, 404);
    assert.equal((await getPost(member!, bob.token)).statusCode, 404, 'the member is hidden with it');
    assert.equal((await readMediaRow(t, member!)).flag, 2);
    assert.equal((await getPost(lead!, ada.token)).statusCode, 200, 'its owner still sees it');
    const show = await t.request({
      method: 'PUT',
      url: `/admin/media/${toHex(lead!)}/flag`,
      token: adminToken,
      body: { flag: 0 },
    });
    assert.equal(show.statusCode, 200, show.body);
    assert.deepEqual(photoIds(await getPost(member!)), [lead, member]);
  });

  it('deleting a member closes the post up; deleting the post deletes every photo', async () => {
    const [lead, second, third] = await photos(3);
    assert.equal((await makePost([lead!, second!, third!])).statusCode, 201);
    const gone = await t.request({ method: 'DELETE', url: `/api/users/me/media/${second}`, token: ada.token });
    assert.equal(gone.statusCode, 204, gone.body);
    const read = await getPost(lead!);
    assert.deepEqual(photoIds(read), [lead, third]);
    assert.deepEqual(
      read.json.data.attributes.photos.map((photo: PostPhoto) => photo.order),
      [0, 1],
    );
    assert.equal((await readMediaRow(t, lead!)).photosCount, 2);

    assert.equal(
      (await t.request({ method: 'DELETE', url: `/api/users/me/posts/${lead}`, token: bob.token })).statusCode,
      404,
    );
    const deleted = await t.request({ method: 'DELETE', url: `/api/users/me/posts/${lead}`, token: ada.token });
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal((await getPost(lead!, ada.token)).statusCode, 404);
    await assert.rejects(readMediaRow(t, third!), 'the member went with it');
  });

  it('the data export holds the posts with their photos in order', async () => {
    const dora = await createUser(t, { username: 'dora' });
    const jpeg = await makeJpeg({ width: 64, height: 48 });
    const ids: string[] = [];
    for (let index = 0; index < 2; index += 1) {
      const res = await upload(t, '/api/users/me/media', dora.token, jpeg);
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json.data.id);
    }
    const made = await t.request({
      method: 'POST',
      url: '/api/users/me/posts',
      token: dora.token,
      body: { photos: [{ mediaId: ids[1] }, { mediaId: ids[0], description: 'Second' }], caption: 'Two' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const res = await t.request({ method: 'GET', url: '/api/users/me/export', token: dora.token });
    assert.equal(res.statusCode, 200, res.body);
    const entries = await readZip(res.rawPayload);
    const posts = JSON.parse(entries.get('posts.json')!.toString('utf8'));
    assert.equal(posts.length, 1);
    assert.equal(posts[0].id, ids[1]);
    assert.equal(posts[0].caption, 'Two');
    assert.deepEqual(
      posts[0].photos.map((photo: { mediaId: string; order: number; description: string | null }) => [
        photo.mediaId,
        photo.order,
        photo.description,
      ]),
      [
        [ids[1], 0, null],
        [ids[0], 1, 'Second'],
      ],
    );
    for (const photo of posts[0].photos) assert.ok(entries.has(photo.file), `${photo.file} is in the archive`);
  });
});
