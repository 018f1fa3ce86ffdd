import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

const collectionsUrl = '/api/users/me/bookmarks/collections';

describe('bookmark collections', () => {
  let t: TestApp;
  let me: TestUser;
  let other: TestUser;
  const create = (user: TestUser, name: unknown) =>
    t.request({ method: 'POST', url: collectionsUrl, token: user.token, body: { name } });

  before(async () => {
    t = await createTestApp();
    me = await createUser(t);
    other = await createUser(t);
  });
  after(() => t.close());

  it('creates, lists newest first, renames and deletes my collections', async () => {
    const created = await create(me, '  Lisbon trip  ');
    assert.equal(created.statusCode, 201);
    assert.equal(created.json.data.type, 'bookmarkCollections');
    assert.equal(created.json.data.attributes.name, 'Lisbon trip', 'the name is trimmed');
    assert.equal(created.json.data.attributes.bookmarksCount, 0);
    assert.equal(created.json.data.attributes.createdAt, '2026-11-21T12:00:00.000+00:00');
    t.clock.advance(1000);
    const second = await create(me, 'Sunsets');
    t.clock.advance(1000);
    const third = await create(me, 'Street food');

    const page = await t.request({ method: 'GET', url: `${collectionsUrl}?limit=2`, token: me.token });
    assert.equal(page.statusCode, 200);
    assert.deepEqual(
      page.json.data.map((item: any) => item.attributes.name),
      ['Street food', 'Sunsets'],
    );
    assert.equal(page.json.meta.limit, 2);
    const next = await t.request({ method: 'GET', url: page.json.links.next, token: me.token });
    assert.deepEqual(
      next.json.data.map((item: any) => item.id),
      [created.json.data.id],
    );
    assert.equal(next.json.links.next, null);

    t.clock.advance(1000);
    const renamed = await t.request({
      method: 'PATCH',
      url: `${collectionsUrl}/${second.json.data.id}`,
      token: me.token,
      body: { name: 'Golden hour' },
    });
    assert.equal(renamed.statusCode, 200);
    assert.equal(renamed.json.data.attributes.name, 'Golden hour');
    assert.equal(renamed.json.data.attributes.updatedAt, '2026-11-21T12:00:03.000+00:00');
    const sameNameOtherCase = await t.request({
      method: 'PATCH',
      url: `${collectionsUrl}/${second.json.data.id}`,
      token: me.token,
      body: { name: 'GOLDEN HOUR' },
    });
    assert.equal(sameNameOtherCase.statusCode, 200, 'a collection may change the case of its own name');

    const deleted = await t.request({
      method: 'DELETE',
      url: `${collectionsUrl}/${third.json.data.id}`,
      token: me.token,
    });
    assert.equal(deleted.statusCode, 204);
    const after = await t.request({ method: 'GET', url: collectionsUrl, token: me.token });
    assert.deepEqual(
      after.json.data.map((item: any) => item.attributes.name),
      ['GOLDEN HOUR', 'Lisbon trip'],
    );
    const again = await t.request({
      method: 'DELETE',
      url: `${collectionsUrl}/${third.json.data.id}`,
      token: me.token,
    });
    assert.equal(again.statusCode, 404);
  });

  it('refuses a name I already use, whatever its case, with 409; another user may use it', async () => {
    assert.equal((await create(me, 'Mountains')).statusCode, 201);
    const taken = await create(me, 'mOUNTAINS ');
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json.errors[0].code, 'collectionNameTaken');
    assert.equal(taken.json.errors[0].source.pointer, '/name');
    const theirs = await create(other, 'mountains');
    assert.equal(theirs.statusCode, 201);
    const lakes = await create(me, 'Lakes');
    const renameTaken = await t.request({
      method: 'PATCH',
      url: `${collectionsUrl}/${lakes.json.data.id}`,
      token: me.token,
      body: { name: 'MOUNTAINS' },
    });
    assert.equal(renameTaken.statusCode, 409);
    const list = await t.request({ method: 'GET', url: `${collectionsUrl}?limit=100`, token: me.token });
    assert.equal(list.json.data.filter((item: any) => item.attributes.name.toLowerCase() === 'mountains').length, 1);
  });

  it('normalizes names to NFC, so one name typed two ways is one name', async () => {
    const user = await createUser(t);
    const composed = await create(user, 'Caf\u00e9 crawl');
    assert.equal(composed.statusCode, 201);
    const decomposed = await create(user, 'CAFE\u0301 CRAWL');
    assert.equal(decomposed.statusCode, 409);
    assert.equal(decomposed.json.errors[0].code, 'collectionNameTaken');
    const other = await create(user, 'Cre\u0300me de la cre\u0300me');
    assert.equal(other.statusCode, 201);
    assert.equal(other.json.data.attributes.name, 'Cr\u00e8me de la cr\u00e8me', 'stored composed');
  });

  it('limits a user to 100 collections (409 collectionLimitReached), exactly under parallel creations', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 95; i++) assert.equal((await create(user, `Trip ${i}`)).statusCode, 201);
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => create(user, `Race ${i}`)));
    assert.deepEqual(racing.map((res) => res.statusCode).sort(), [201, 201, 201, 201, 201, 409, 409, 409, 409, 409]);
    const refused = racing.find((res) => res.statusCode === 409)!;
    assert.equal(refused.json.errors[0].code, 'collectionLimitReached');
    assert.equal(refused.json.errors[0].meta.limit, 100);
    let count = 0;
    let url: string | null = `${collectionsUrl}?limit=100`;
    while (url !== null) {
      const page = await t.request({ method: 'GET', url, token: user.token });
      count += page.json.data.length;
      url =
        page.json.links.next === null
          ? null
          : new URL(page.json.links.next).pathname + new URL(page.json.links.next).search;
    }
    assert.equal(count, 100);
    // Deleting one makes room for one.
    const first = await t.request({ method: 'GET', url: `${collectionsUrl}?limit=1`, token: user.token });
    const removed = await t.request({
      method: 'DELETE',
      url: `${collectionsUrl}/${first.json.data[0].id}`,
      token: user.token,
    });
    assert.equal(removed.statusCode, 204);
    assert.equal((await create(user, 'One more')).statusCode, 201);
    assert.equal((await create(user, 'One too many')).statusCode, 409);
  });

  it('refuses invalid names with 422 and a pointer, writing nothing', async () => {
    const before = (await t.request({ method: 'GET', url: `${collectionsUrl}?limit=100`, token: me.token })).json.data
      .length;
    const cases: Array<[unknown, string]> = [
      [{ name: '' }, '/name'],
      [{ name: '    ' }, '/name'],
      [{ name: 'x'.repeat(61) }, '/name'],
      [{ name: 42 }, '/name'],
      [{}, '/name'],
      [{ name: 'ok', color: 'red' }, '/color'],
    ];
    for (const [body, pointer] of cases) {
      const res = await t.request({ method: 'POST', url: collectionsUrl, token: me.token, body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.ok(
        res.json.errors.some((error: any) => error.code === 'validationFailed' && error.source.pointer === pointer),
        JSON.stringify(res.json),
      );
    }
    assert.equal((await create(me, 'x'.repeat(60))).statusCode, 201, '60 characters is the limit');
    const after = (await t.request({ method: 'GET', url: `${collectionsUrl}?limit=100`, token: me.token })).json.data
      .length;
    assert.equal(after, before + 1);
  });

  it("answers 404 for another user's collection and for an unknown one, 422 for a malformed id", async () => {
    const theirs = await create(other, `Private ${randomUUID()}`);
    const id = theirs.json.data.id;
    for (const [method, body] of [
      ['PATCH', { name: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      for (const target of [id, randomUUID()]) {
        const res = await t.request({ method, url: `${collectionsUrl}/${target}`, token: me.token, body });
        assert.equal(res.statusCode, 404, `${method} ${target}`);
        assert.equal(res.json.errors[0].code, 'notFound');
        assert.equal(res.json.errors[0].source.parameter, 'collectionId');
      }
      const malformed = await t.request({ method, url: `${collectionsUrl}/not-a-uuid`, token: me.token, body });
      assert.equal(malformed.statusCode, 422);
      assert.equal(malformed.json.errors[0].code, 'invalidId');
      assert.equal(malformed.json.errors[0].source.parameter, 'collectionId');
    }
    const stillThere = await t.request({ method: 'GET', url: collectionsUrl, token: other.token });
    assert.ok(stillThere.json.data.some((item: any) => item.id === id && item.attributes.name.startsWith('Private')));
  });

  it('keeps the bookmarks of a deleted collection, outside any collection', async () => {
    const owner = await createUser(t);
    const photo = await createMediaRow(t, owner.id);
    const trip = await create(me, 'Weekend in Porto');
    const put = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${photo.id}/bookmark`,
      token: me.token,
      body: { collectionId: trip.json.data.id },
    });
    assert.equal(put.statusCode, 200);
    const counted = await t.request({ method: 'GET', url: `${collectionsUrl}?limit=100`, token: me.token });
    assert.equal(counted.json.data.find((item: any) => item.id === trip.json.data.id).attributes.bookmarksCount, 1);
    assert.equal(
      (await t.request({ method: 'DELETE', url: `${collectionsUrl}/${trip.json.data.id}`, token: me.token }))
        .statusCode,
      204,
    );
    const loose = await t.request({ method: 'GET', url: '/api/users/me/bookmarks?collectionId=none', token: me.token });
    const kept = loose.json.data.find((item: any) => item.id === photo.id);
    assert.ok(kept, 'the bookmark survived its collection');
    assert.equal(kept.meta.collectionId, null);
  });

  it('refuses every collection route without a token (401) and bad paging with 400', async () => {
    const id = randomUUID();
    const calls = [
      { method: 'GET' as const, url: collectionsUrl },
      { method: 'POST' as const, url: collectionsUrl, body: { name: 'x' } },
      { method: 'PATCH' as const, url: `${collectionsUrl}/${id}`, body: { name: 'x' } },
      { method: 'DELETE' as const, url: `${collectionsUrl}/${id}` },
    ];
    for (const call of calls) {
      const res = await t.request(call);
      assert.equal(res.statusCode, 401, `${call.method} ${call.url}`);
      assert.equal(res.json.errors[0].code, 'unauthenticated');
    }
    for (const query of ['cursor=zzz', 'before=', 'limit=0', 'limit=500']) {
      const res = await t.request({ method: 'GET', url: `${collectionsUrl}?${query}`, token: me.token });
      assert.equal(res.statusCode, 400, query);
      assert.ok(res.json.errors[0].source.parameter, query);
    }
  });
});
