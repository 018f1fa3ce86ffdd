/**
 * GET /api/social-feeds/{code}: which media a feed shows (criteria, places, hand-picked), newest
 * first in keyset pages, presented like every public media list; what unpublishing, deleting and
 * banning do to it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';

describe('public social feeds', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const publish = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url: '/api/users/me/social-feeds', token: user.token, body });
    assert.equal(res.statusCode, 201, JSON.stringify(res.json));
    return res.json.data.attributes.code as string;
  };
  const view = (code: string, token?: string, query = '') =>
    t.request({ method: 'GET', url: `/api/social-feeds/${code}${query}`, token });
  const ids = async (code: string, token?: string) => {
    const res = await view(code, token, '?limit=100');
    assert.equal(res.statusCode, 200, JSON.stringify(res.json));
    return res.json.data.map((item: any) => item.id);
  };

  it('shows the owner’s publicly listed posts with any of the hashtags, newest first, like any public media list', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const older = await createMediaRow(t, ana.id, { hashtags: ['beach'] });
    const newer = await createMediaRow(t, ana.id, { hashtags: ['sunset', 'city'], locationPublic: false });
    await createMediaRow(t, ana.id, { hashtags: ['beach'], published: false });
    await createMediaRow(t, ana.id, { hashtags: ['beach'], flag: 1 });
    await createMediaRow(t, ana.id, { hashtags: ['beach'], flag: 2 });
    await createMediaRow(t, ana.id, { hashtags: ['food'] });
    await createMediaRow(t, ana.id, { hashtags: ['beach'], kind: 'avatar' });
    await createMediaRow(t, bob.id, { hashtags: ['beach'] });
    const code = await publish(ana, { name: 'Coast and city', description: 'Mine', hashtags: ['beach', 'City'] });

    const res = await view(code);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/vnd.api+json');
    assert.deepEqual(
      res.json.data.map((item: any) => item.id),
      [newer.id, older.id],
    );
    const publicList = await t.request({ method: 'GET', url: `/api/users/${ana.id}/media?limit=100` });
    for (const item of res.json.data) {
      assert.deepEqual(
        item,
        publicList.json.data.find((listed: any) => listed.id === item.id),
        'presented exactly like a user’s public media',
      );
    }
    assert.equal(res.json.data[0].attributes.position, null, 'a hidden position stays hidden');
    assert.equal(res.json.meta.limit, 20);
    const feed = res.json.meta.feed;
    assert.equal(feed.type, 'socialFeeds');
    assert.deepEqual(feed.attributes, {
      code,
      name: 'Coast and city',
      description: 'Mine',
      mode: 'criteria',
      hashtags: ['beach', 'city'],
      countryCode: null,
      cityId: null,
      createdAt: '2026-11-21T12:00:00.000+00:00',
    });
    assert.deepEqual(feed.relationships.owner.data, { type: 'users', id: ana.id });
    assert.equal(res.json.included.length, 1);
    assert.equal(res.json.included[0].type, 'users');
    assert.equal(res.json.included[0].id, ana.id);
    assert.equal(res.json.included[0].attributes.username, ana.username);
    assert.equal(res.json.included[0].attributes.email, undefined, 'the public view of the owner');

    assert.deepEqual(await ids(code, bob.token), [newer.id, older.id], 'another viewer sees the same');
    const asOwner = await view(code, ana.token);
    assert.deepEqual(
      asOwner.json.data.map((item: any) => item.id),
      [newer.id, older.id],
      'the owner sees the public selection too',
    );
    assert.deepEqual(asOwner.json.data[0].attributes.position, { latitude: 43.2965, longitude: 5.3698 });
  });

  it('matches places only on media whose position is public, and every criterion given', async () => {
    const ana = await createUser(t);
    const cityNear = async (latitude: number, longitude: number) =>
      (await t.services.areas.geography.geography.nearestCity(latitude, longitude))!.id;
    const lisbon = await cityNear(38.7223, -9.1393);
    const porto = await cityNear(41.1579, -8.6291);
    assert.notEqual(lisbon, porto);
    const beachInPortugal = await createMediaRow(t, ana.id, { countryCode: 'PT', cityId: lisbon, hashtags: ['beach'] });
    const foodInPortugal = await createMediaRow(t, ana.id, { countryCode: 'PT', hashtags: ['food'] });
    await createMediaRow(t, ana.id, { countryCode: 'PT', cityId: lisbon, hashtags: ['beach'], locationPublic: false });
    await createMediaRow(t, ana.id, { countryCode: 'ES', hashtags: ['beach'] });
    await createMediaRow(t, ana.id, { countryCode: null, hashtags: ['beach'] });

    assert.deepEqual(await ids(await publish(ana, { name: 'Portugal', countryCode: 'pt' })), [
      foodInPortugal.id,
      beachInPortugal.id,
    ]);
    assert.deepEqual(await ids(await publish(ana, { name: 'Lisbon', cityId: lisbon })), [beachInPortugal.id]);
    assert.deepEqual(
      await ids(await publish(ana, { name: 'Beaches of Portugal', hashtags: ['beach'], countryCode: 'PT' })),
      [beachInPortugal.id],
    );
    assert.deepEqual(await ids(await publish(ana, { name: 'Porto', countryCode: 'PT', cityId: porto })), []);
  });

  it('shows every publicly listed post of the owner when no criterion is given', async () => {
    const ana = await createUser(t);
    const first = await createMediaRow(t, ana.id, { hashtags: [] });
    const second = await createMediaRow(t, ana.id, { hashtags: ['x'], locationPublic: false });
    await createMediaRow(t, ana.id, { published: false });
    const code = await publish(ana, { name: 'All of mine' });
    assert.deepEqual(await ids(code), [second.id, first.id]);
  });

  it('shows the hand-picked posts while they are public: unpublished ones drop out and come back, deleted ones are gone', async () => {
    const ana = await createUser(t);
    const one = await createMediaRow(t, ana.id, { hashtags: ['beach'] });
    const two = await createMediaRow(t, ana.id, { hashtags: ['food'] });
    const draft = await createMediaRow(t, ana.id, { published: false });
    const notPicked = await createMediaRow(t, ana.id, { hashtags: ['beach'] });
    const code = await publish(ana, { name: 'Picks', mediaIds: [one.id, two.id, draft.id] });
    assert.deepEqual(await ids(code), [two.id, one.id]);
    assert.equal((await view(code)).json.meta.feed.attributes.mode, 'handPicked');
    assert.equal((await view(code)).json.meta.feed.attributes.mediaIds, undefined, 'the picks stay with the owner');

    await updateMediaRow(t, draft.id, { published: true });
    assert.deepEqual(await ids(code), [draft.id, two.id, one.id], 'published later: in the feed');
    await updateMediaRow(t, one.id, { published: false });
    await updateMediaRow(t, two.id, { flag: 1 });
    assert.deepEqual(await ids(code), [draft.id], 'unpublished or flagged: out');
    await updateMediaRow(t, one.id, { published: true });
    assert.deepEqual(await ids(code), [draft.id, one.id], 'published again: back');

    const removed = await t.request({ method: 'DELETE', url: `/api/users/me/media/${draft.id}`, token: ana.token });
    assert.equal(removed.statusCode, 204);
    assert.deepEqual(await ids(code), [one.id]);
    const own = await t.request({ method: 'GET', url: '/api/users/me/social-feeds', token: ana.token });
    assert.deepEqual(own.json.data[0].attributes.mediaIds, [one.id, two.id].sort(), 'a deleted media leaves the picks');

    for (const id of [one.id, two.id]) {
      assert.equal(
        (await t.request({ method: 'DELETE', url: `/api/users/me/media/${id}`, token: ana.token })).statusCode,
        204,
      );
    }
    assert.deepEqual(await ids(code), [], 'every pick deleted: an empty feed, not all of the owner’s media');
    assert.ok(notPicked.id);
  });

  it('pages the feed newest first with keyset cursors both ways', async () => {
    const ana = await createUser(t);
    const media = [];
    for (let i = 0; i < 5; i++) media.push(await createMediaRow(t, ana.id, { hashtags: ['hiking'] }));
    const newestFirst = media.map((row) => row.id).reverse();
    const code = await publish(ana, { name: 'Trails', hashtags: ['hiking'] });
    const seen: string[] = [];
    let next: string | null = `/api/social-feeds/${code}?limit=2`;
    let last: any;
    while (next) {
      last = await t.request({ method: 'GET', url: next });
      assert.equal(last.statusCode, 200);
      assert.equal(last.json.meta.limit, 2);
      assert.equal(last.json.meta.feed.attributes.code, code);
      seen.push(...last.json.data.map((item: any) => item.id));
      next = last.json.links.next;
    }
    assert.deepEqual(seen, newestFirst);
    assert.match(last.json.links.self, new RegExp(`/api/social-feeds/${code}\\?`));
    const back = await t.request({ method: 'GET', url: last.json.links.prev });
    assert.deepEqual(
      back.json.data.map((item: any) => item.id),
      newestFirst.slice(2, 4),
    );
    await publish(ana, { name: 'Another' });
    const ownNext = (await t.request({ method: 'GET', url: '/api/users/me/social-feeds?limit=1', token: ana.token }))
      .json.links.next as string;
    const foreign = await view(code, undefined, `?${ownNext.split('?')[1]}`);
    assert.equal(foreign.statusCode, 400, 'a cursor of my feeds list is not one of this feed');
    assert.equal(foreign.json.errors[0].code, 'invalidCursor');
    for (const query of ['limit=0', 'limit=101', 'cursor=zzz', 'colour=blue']) {
      const res = await view(code, undefined, `?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.ok(res.json.errors[0].source.parameter, query);
    }
  });

  it('answers 404 for unknown and malformed codes', async () => {
    for (const code of ['AAAAAAAAAAAA', 'short', 'has-a-dash-1', 'x'.repeat(40)]) {
      const res = await view(code);
      assert.equal(res.statusCode, 404, code);
      assert.equal(res.json.errors[0].code, 'notFound');
      assert.equal(res.json.errors[0].source.parameter, 'code');
    }
  });

  it('hides every feed of a banned owner (404), shows it again if the ban is lifted, and hides an erased one', async () => {
    const ana = await createUser(t);
    const photo = await createMediaRow(t, ana.id, { hashtags: ['beach'] });
    const byTag = await publish(ana, { name: 'Beaches', hashtags: ['beach'] });
    const picked = await publish(ana, { name: 'Picks', mediaIds: [photo.id] });
    await updateUserRow(t, ana.id, { bannedAt: t.clock.now() });
    for (const code of [byTag, picked]) {
      const res = await view(code);
      assert.equal(res.statusCode, 404, code);
      assert.equal(res.json.errors[0].code, 'notFound');
    }
    await updateUserRow(t, ana.id, { bannedAt: null });
    assert.deepEqual(await ids(byTag), [photo.id]);
    await updateUserRow(t, ana.id, { anonymizedAt: t.clock.now() });
    assert.equal((await view(byTag)).statusCode, 404, 'an erased account shares nothing');
  });
});
