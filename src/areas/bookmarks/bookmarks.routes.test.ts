import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';
import { queryRows } from '../../platform/db/rows.ts';

const bookmarkUrl = (mediaId: string) => `/api/users/me/media/${mediaId}/bookmark`;

describe('bookmarks', () => {
  let t: TestApp;
  let owner: TestUser;
  let me: TestUser;
  let other: TestUser;
  const collection = async (user: TestUser, name: string) =>
    (await t.request({ method: 'POST', url: '/api/users/me/bookmarks/collections', token: user.token, body: { name } }))
      .json.data.id as string;
  const put = (user: TestUser, mediaId: string, body: unknown = {}) =>
    t.request({ method: 'PUT', url: bookmarkUrl(mediaId), token: user.token, body });
  const ids = (res: { json: any }) => res.json.data.map((item: any) => item.id);

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    me = await createUser(t);
    other = await createUser(t);
  });
  after(() => t.close());

  it('bookmarks idempotently, moves between collections and out, and removes, counting once', async () => {
    const photo = await createMediaRow(t, owner.id);
    const porto = await collection(me, 'Porto');
    const lisbon = await collection(me, 'Lisbon');

    const created = await put(me, photo.id, { collectionId: porto });
    assert.equal(created.statusCode, 200);
    assert.equal(created.json.data.type, 'bookmarks');
    assert.equal(created.json.meta.change, 'created');
    assert.equal(created.json.data.attributes.mediaBookmarksCount, 1);
    assert.deepEqual(created.json.data.relationships.media.data, { type: 'media', id: photo.id });
    assert.deepEqual(created.json.data.relationships.collection.data, { type: 'bookmarkCollections', id: porto });

    const repeated = await put(me, photo.id, { collectionId: porto });
    assert.equal(repeated.json.meta.change, 'unchanged');
    assert.equal(repeated.json.data.id, created.json.data.id);
    const kept = await put(me, photo.id, {});
    assert.equal(kept.json.meta.change, 'unchanged', 'no collectionId keeps the bookmark where it is');
    assert.deepEqual(kept.json.data.relationships.collection.data, { type: 'bookmarkCollections', id: porto });

    t.clock.advance(5000);
    const moved = await put(me, photo.id.replaceAll('-', ''), { collectionId: lisbon.toUpperCase() });
    assert.equal(moved.json.meta.change, 'moved');
    assert.deepEqual(moved.json.data.relationships.collection.data, { type: 'bookmarkCollections', id: lisbon });
    assert.equal(moved.json.data.attributes.createdAt, created.json.data.attributes.createdAt);
    assert.notEqual(moved.json.data.attributes.updatedAt, created.json.data.attributes.updatedAt);
    const out = await put(me, photo.id, { collectionId: null });
    assert.equal(out.json.meta.change, 'moved');
    assert.equal(out.json.data.relationships.collection.data, null);
    assert.equal(out.json.data.attributes.mediaBookmarksCount, 1);

    await put(other, photo.id);
    assert.equal((await readMediaRow(t, photo.id)).bookmarksCount, 2);
    const removed = await t.request({ method: 'DELETE', url: bookmarkUrl(photo.id), token: me.token });
    assert.equal(removed.statusCode, 204);
    assert.equal((await readMediaRow(t, photo.id)).bookmarksCount, 1);
    const again = await t.request({ method: 'DELETE', url: bookmarkUrl(photo.id), token: me.token });
    assert.equal(again.statusCode, 404);
    assert.equal(again.json.errors[0].source.parameter, 'mediaId');
  });

  it('lists my bookmarks newest first, by collection or outside any, in keyset pages', async () => {
    const viewer = await createUser(t);
    const beach = await collection(viewer, 'Beaches');
    const photos = [];
    for (let i = 0; i < 4; i++) photos.push(await createMediaRow(t, owner.id));
    for (const [index, collectionId] of [
      [0, beach],
      [1, null],
      [2, beach],
      [3, null],
    ] as const) {
      t.clock.advance(1000);
      assert.equal((await put(viewer, photos[index]!.id, { collectionId })).statusCode, 200);
    }
    const all = await t.request({ method: 'GET', url: '/api/users/me/bookmarks?limit=3', token: viewer.token });
    assert.equal(all.statusCode, 200);
    assert.deepEqual(ids(all), [photos[3]!.id, photos[2]!.id, photos[1]!.id]);
    const first = all.json.data[1];
    assert.equal(first.type, 'media');
    assert.equal(first.attributes.bookmarksCount, 1);
    assert.equal(first.meta.collectionId, beach);
    assert.match(first.meta.bookmarkedAt, /\+00:00$/);
    assert.deepEqual(first.relationships, {
      owner: { data: { type: 'users', id: owner.id } },
      post: { data: { type: 'posts', id: photos[2]!.id } },
    });
    const rest = await t.request({ method: 'GET', url: all.json.links.next, token: viewer.token });
    assert.deepEqual(ids(rest), [photos[0]!.id]);
    assert.equal(rest.json.links.next, null);
    assert.ok(rest.json.links.prev);

    const inBeach = await t.request({
      method: 'GET',
      url: `/api/users/me/bookmarks?collectionId=${beach}`,
      token: viewer.token,
    });
    assert.deepEqual(ids(inBeach), [photos[2]!.id, photos[0]!.id]);
    const pagedBeach = await t.request({
      method: 'GET',
      url: `/api/users/me/bookmarks?collectionId=${beach}&limit=1`,
      token: viewer.token,
    });
    assert.match(pagedBeach.json.links.next, new RegExp(`collectionId=${beach}`));
    const loose = await t.request({
      method: 'GET',
      url: '/api/users/me/bookmarks?collectionId=none',
      token: viewer.token,
    });
    assert.deepEqual(ids(loose), [photos[3]!.id, photos[1]!.id]);

    await updateMediaRow(t, photos[3]!.id, { published: false });
    const afterHiding = await t.request({ method: 'GET', url: '/api/users/me/bookmarks', token: viewer.token });
    assert.deepEqual(
      ids(afterHiding),
      [photos[2]!.id, photos[1]!.id, photos[0]!.id],
      'an unpublished media leaves my list',
    );
  });

  it("answers 404 for another user's collection, in a PUT and in the list, writing nothing", async () => {
    const photo = await createMediaRow(t, owner.id);
    const theirs = await collection(other, 'Not yours');
    for (const collectionId of [theirs, randomUUID()]) {
      const res = await put(me, photo.id, { collectionId });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json.errors[0].code, 'notFound');
      assert.equal(res.json.errors[0].source.pointer, '/collectionId');
      const list = await t.request({
        method: 'GET',
        url: `/api/users/me/bookmarks?collectionId=${collectionId}`,
        token: me.token,
      });
      assert.equal(list.statusCode, 404);
      assert.equal(list.json.errors[0].source.parameter, 'collectionId');
    }
    assert.equal((await readMediaRow(t, photo.id)).bookmarksCount, 0);
  });

  it('answers 404 for a media that does not exist or that I may not see, 422 for malformed ids and bodies, 400 for bad queries', async () => {
    const hidden = await createMediaRow(t, owner.id, { flag: 2 });
    const draft = await createMediaRow(t, owner.id, { published: false });
    for (const id of [hidden.id, draft.id, randomUUID()]) {
      const res = await put(me, id);
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.json.errors[0].source.parameter, 'mediaId');
    }
    assert.equal((await put(owner, draft.id)).statusCode, 200, 'the owner may bookmark their own draft');
    const photo = await createMediaRow(t, owner.id);
    const badId = await put(me, 'abc');
    assert.equal(badId.statusCode, 422);
    assert.equal(badId.json.errors[0].code, 'invalidId');
    const badDelete = await t.request({ method: 'DELETE', url: bookmarkUrl('abc'), token: me.token });
    assert.equal(badDelete.statusCode, 422);
    const cases: Array<[unknown, string]> = [
      [{ collectionId: 'porto' }, '/collectionId'],
      [{ collectionId: `urn:uuid:${randomUUID()}` }, '/collectionId'],
      [{ collectionId: 7 }, '/collectionId'],
      [{ folder: 'x' }, '/folder'],
      ['x', ''], // the whole document: the root pointer of RFC 6901
    ];
    for (const [body, pointer] of cases) {
      const res = await put(me, photo.id, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.ok(
        res.json.errors.some((error: any) => error.code === 'validationFailed' && error.source.pointer === pointer),
        JSON.stringify(res.json),
      );
    }
    for (const query of ['collectionId=porto', 'cursor=abc', 'limit=0', 'page=2']) {
      const res = await t.request({ method: 'GET', url: `/api/users/me/bookmarks?${query}`, token: me.token });
      assert.equal(res.statusCode, 400, query);
      assert.ok(res.json.errors[0].source.parameter, query);
    }
    assert.equal((await readMediaRow(t, photo.id)).bookmarksCount, 0);
  });

  it('refuses every bookmark route without a token (401)', async () => {
    const photo = await createMediaRow(t, owner.id);
    const calls = [
      { method: 'PUT' as const, url: bookmarkUrl(photo.id), body: {} },
      { method: 'DELETE' as const, url: bookmarkUrl(photo.id) },
      { method: 'GET' as const, url: '/api/users/me/bookmarks' },
    ];
    for (const call of calls) {
      const res = await t.request(call);
      assert.equal(res.statusCode, 401, `${call.method} ${call.url}`);
      assert.equal(res.json.errors[0].code, 'unauthenticated');
    }
  });

  it('keeps bookmarks_count equal to the stored bookmarks with 30 parallel PUTs and DELETEs', async () => {
    const photo = await createMediaRow(t, owner.id);
    const users = [me, other, owner];
    for (let i = 0; i < 3; i++) users.push(await createUser(t));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const user = users[i % users.length]!;
        return i % 3 === 2
          ? t.request({ method: 'DELETE', url: bookmarkUrl(photo.id), token: user.token })
          : put(user, photo.id);
      }),
    );
    for (const res of answers) assert.ok([200, 204, 404].includes(res.statusCode), String(res.statusCode));
    const [truth] = await queryRows<{ count: number }>(
      t.deps.database.db,
      sql`SELECT count(*)::int AS count FROM bookmarks WHERE media_id = ${photo.id}`,
    );
    assert.equal((await readMediaRow(t, photo.id)).bookmarksCount, truth!.count);
  });
});
