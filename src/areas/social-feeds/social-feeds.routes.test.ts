/** My social feeds: publishing (and every validation), listing in pages, deleting, the limit, 401. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { feedLimits } from './feed-selection.ts';

const mine = '/api/users/me/social-feeds';

describe('my social feeds', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const create = (user: TestUser, body: unknown) => t.request({ method: 'POST', url: mine, token: user.token, body });
  const cityNear = async (latitude: number, longitude: number) => {
    const city = await t.services.areas.geography.geography.nearestCity(latitude, longitude);
    assert.ok(city, `a city near ${latitude}, ${longitude}`);
    return city;
  };
  const pointers = (res: { json: any }) => res.json.errors.map((error: any) => error.source?.pointer);

  it('publishes a feed by criteria (201): trimmed, hashtags folded, country upper-cased, a fresh code', async () => {
    const ana = await createUser(t);
    const cityId = (await cityNear(43.2965, 5.3698)).id;
    const res = await create(ana, {
      name: '  Summer in Provence ',
      description: '  Lavender and coves  ',
      hashtags: ['#Beach', 'sunset', 'beach', 'SUNSET'],
      countryCode: 'fr',
      cityId: cityId.toUpperCase(),
    });
    assert.equal(res.statusCode, 201);
    const feed = res.json.data;
    assert.equal(feed.type, 'socialFeeds');
    assert.match(feed.id, /^[0-9a-f-]{36}$/);
    assert.match(feed.attributes.code, /^[0-9A-Za-z]{12}$/);
    assert.deepEqual(
      { ...feed.attributes, code: undefined },
      {
        code: undefined,
        name: 'Summer in Provence',
        description: 'Lavender and coves',
        mode: 'criteria',
        hashtags: ['beach', 'sunset'],
        countryCode: 'FR',
        cityId,
        mediaIds: [],
        createdAt: '2026-11-21T12:00:00.000+00:00',
      },
    );
    assert.deepEqual(feed.relationships.owner.data, { type: 'users', id: ana.id });
    const other = await create(ana, { name: 'Everything', description: '   ', hashtags: [], mediaIds: null });
    assert.equal(other.statusCode, 201);
    assert.notEqual(other.json.data.attributes.code, feed.attributes.code);
    assert.equal(other.json.data.attributes.description, null, 'a blank description is none');
    assert.deepEqual(other.json.data.attributes.hashtags, []);
    assert.equal(other.json.data.attributes.mode, 'criteria');
  });

  it('publishes a hand-picked feed of my own posts (UUID or hex, repeats folded), in any state', async () => {
    const ana = await createUser(t);
    const one = await createMediaRow(t, ana.id);
    const draft = await createMediaRow(t, ana.id, { published: false });
    const res = await create(ana, { name: 'Best of', mediaIds: [one.id, draft.id.replaceAll('-', ''), one.id] });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json.data.attributes.mode, 'handPicked');
    assert.deepEqual(res.json.data.attributes.mediaIds, [one.id, draft.id].sort());
    assert.deepEqual(res.json.data.attributes.hashtags, []);
  });

  it('refuses hand-picked media that are not my posts, one error per element', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const mineToo = await createMediaRow(t, ana.id);
    const theirs = await createMediaRow(t, bob.id);
    const avatar = await createMediaRow(t, ana.id, { kind: 'avatar' });
    const res = await create(ana, {
      name: 'Picks',
      mediaIds: [mineToo.id, theirs.id, 'not-an-id', randomUUID(), avatar.id],
    });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(pointers(res).sort(), ['/mediaIds/1', '/mediaIds/2', '/mediaIds/3', '/mediaIds/4']);
    assert.ok(res.json.errors.every((error: any) => error.code === 'validationFailed'));
    const list = await t.request({ method: 'GET', url: mine, token: ana.token });
    assert.deepEqual(list.json.data, [], 'nothing published');
  });

  it('refuses every bad field at once with pointers, and mixing hand-picked media with criteria', async () => {
    const ana = await createUser(t);
    const photo = await createMediaRow(t, ana.id);
    const all = await create(ana, {
      name: '   ',
      description: 'x'.repeat(feedLimits.descriptionMaxLength + 1),
      countryCode: 'XX',
      cityId: 'paris',
    });
    assert.equal(all.statusCode, 422);
    assert.deepEqual(pointers(all).sort(), ['/cityId', '/countryCode', '/description', '/name']);

    const lisbon = await cityNear(38.7223, -9.1393);
    assert.equal(lisbon.countryCode, 'PT');
    const unknownCity = await create(ana, { name: 'Atlantis', cityId: randomUUID() });
    assert.equal(unknownCity.statusCode, 422);
    assert.deepEqual(pointers(unknownCity), ['/cityId']);
    assert.match(unknownCity.json.errors[0].detail, /no such city/);
    const elsewhere = await create(ana, { name: 'Lisbon, France', cityId: lisbon.id, countryCode: 'FR' });
    assert.equal(elsewhere.statusCode, 422);
    assert.deepEqual(pointers(elsewhere), ['/cityId']);
    assert.equal(elsewhere.json.errors[0].meta.cityCountryCode, 'PT');
    const inLisbon = await create(ana, { name: 'Lisbon', cityId: lisbon.id, countryCode: 'pt' });
    assert.equal(inLisbon.statusCode, 201);
    const code = inLisbon.json.data.attributes.code;
    assert.equal((await t.request({ method: 'DELETE', url: `${mine}/${code}`, token: ana.token })).statusCode, 204);

    const mixed = await create(ana, { name: 'Mixed', mediaIds: [photo.id], hashtags: ['beach'] });
    assert.equal(mixed.statusCode, 422);
    assert.deepEqual(pointers(mixed), ['/mediaIds']);
    assert.match(mixed.json.errors[0].detail, /hand-picked/);
    for (const criterion of [{ countryCode: 'FR' }, { cityId: lisbon.id }]) {
      const res = await create(ana, { name: 'Mixed', mediaIds: [photo.id], ...criterion });
      assert.equal(res.statusCode, 422, JSON.stringify(criterion));
      assert.deepEqual(pointers(res), ['/mediaIds']);
    }

    const cases: Array<[unknown, string]> = [
      [{}, '/name'],
      [{ name: '' }, '/name'],
      [{ name: 'x'.repeat(feedLimits.nameMaxLength + 1) }, '/name'],
      [{ name: 7 }, '/name'],
      [{ name: 'Tags', hashtags: ['ok', 'not ok'] }, '/hashtags/1'],
      [
        { name: 'Tags', hashtags: Array.from({ length: feedLimits.maxHashtags + 1 }, (_, i) => `tag${i}`) },
        '/hashtags',
      ],
      [{ name: 'Tags', hashtags: 'beach' }, '/hashtags'],
      [{ name: 'Picks', mediaIds: Array.from({ length: feedLimits.maxMediaIds + 1 }, () => photo.id) }, '/mediaIds'],
      [{ name: 'Picks', mediaIds: [42] }, '/mediaIds/0'],
      [{ name: 'Place', countryCode: 33 }, '/countryCode'],
      [{ name: 'Feed', colour: 'blue' }, '/colour'],
      [['Feed'], ''],
    ];
    for (const [body, pointer] of cases) {
      const res = await create(ana, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 80));
      assert.ok(
        res.json.errors.some((error: any) => error.code === 'validationFailed' && error.source.pointer === pointer),
        `${pointer}: ${JSON.stringify(res.json).slice(0, 300)}`,
      );
    }
    const list = await t.request({ method: 'GET', url: mine, token: ana.token });
    assert.deepEqual(list.json.data, [], 'nothing published');
  });

  it('lists my feeds newest first in keyset pages, never anyone else’s', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      codes.push((await create(ana, { name: `Feed ${i}` })).json.data.attributes.code);
      t.clock.advance(1000);
    }
    await create(bob, { name: 'Not Ana’s' });
    const seen: string[] = [];
    let next: string | null = `${mine}?limit=2`;
    let last: any;
    while (next) {
      last = await t.request({ method: 'GET', url: next, token: ana.token });
      assert.equal(last.statusCode, 200);
      assert.equal(last.json.meta.limit, 2);
      assert.equal(last.json.meta.maxFeeds, feedLimits.maxFeedsPerUser);
      seen.push(...last.json.data.map((feed: any) => feed.attributes.code));
      next = last.json.links.next;
    }
    assert.deepEqual(seen, [...codes].reverse());
    const back = await t.request({ method: 'GET', url: last.json.links.prev, token: ana.token });
    assert.deepEqual(
      back.json.data.map((feed: any) => feed.attributes.name),
      ['Feed 2', 'Feed 1'],
    );
    for (const query of ['limit=0', 'limit=101', 'cursor=abc', 'cursor=x&before=y']) {
      const res = await t.request({ method: 'GET', url: `${mine}?${query}`, token: ana.token });
      assert.equal(res.statusCode, 400, query);
    }
  });

  it('deletes my feed (204): its link is 404 from then on; another user’s or an unknown code is 404', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const code = (await create(ana, { name: 'Short-lived' })).json.data.attributes.code;
    const bobs = (await create(bob, { name: 'Bob’s' })).json.data.attributes.code;
    assert.equal((await t.request({ method: 'GET', url: `/api/social-feeds/${code}` })).statusCode, 200);

    for (const target of [
      bobs,
      'AAAAAAAAAAAA',
      'not-a-code',
      code.toLowerCase() === code ? 'zzzzzzzzzzzz' : code.toLowerCase(),
    ]) {
      const res = await t.request({ method: 'DELETE', url: `${mine}/${target}`, token: ana.token });
      assert.equal(res.statusCode, 404, target);
      assert.equal(res.json.errors[0].code, 'notFound');
      assert.equal(res.json.errors[0].source.parameter, 'code');
    }
    assert.equal((await t.request({ method: 'GET', url: `/api/social-feeds/${bobs}` })).statusCode, 200, 'Bob’s stays');

    const deleted = await t.request({ method: 'DELETE', url: `${mine}/${code}`, token: ana.token });
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    const gone = await t.request({ method: 'GET', url: `/api/social-feeds/${code}` });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json.errors[0].code, 'notFound');
    assert.equal((await t.request({ method: 'DELETE', url: `${mine}/${code}`, token: ana.token })).statusCode, 404);
    assert.deepEqual((await t.request({ method: 'GET', url: mine, token: ana.token })).json.data, []);
  });

  it(`allows at most ${feedLimits.maxFeedsPerUser} feeds a user (409 conflict), and one more after a delete`, async () => {
    const ana = await createUser(t);
    const created = await Promise.all(
      Array.from({ length: feedLimits.maxFeedsPerUser + 3 }, (_, i) => create(ana, { name: `Feed ${i}` })),
    );
    const statuses = created.map((res) => res.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, feedLimits.maxFeedsPerUser);
    assert.equal(statuses.filter((status) => status === 409).length, 3);
    const refused = created.find((res) => res.statusCode === 409)!;
    assert.equal(refused.json.errors[0].code, 'conflict');
    assert.equal(refused.json.errors[0].meta.maxFeeds, feedLimits.maxFeedsPerUser);
    const code = created.find((res) => res.statusCode === 201)!.json.data.attributes.code;
    assert.equal((await t.request({ method: 'DELETE', url: `${mine}/${code}`, token: ana.token })).statusCode, 204);
    assert.equal((await create(ana, { name: 'One more' })).statusCode, 201);
    assert.equal((await create(ana, { name: 'Too many' })).statusCode, 409);
  });

  it('refuses my feeds without a token (401)', async () => {
    for (const [method, url, body] of [
      ['POST', mine, { name: 'x' }],
      ['GET', mine, undefined],
      ['DELETE', `${mine}/AAAAAAAAAAAA`, undefined],
    ] as const) {
      const res = await t.request({ method, url, body });
      assert.equal(res.statusCode, 401, `${method} ${url}`);
      assert.equal(res.json.errors[0].code, 'unauthenticated');
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    }
  });
});
