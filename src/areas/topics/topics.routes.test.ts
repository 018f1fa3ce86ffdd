/** The 3 topic routes: the catalogue (localized, paged), my topics, replacing them, and hashtagsOfUser. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { hashtagPattern } from '../../platform/text/hashtags.ts';
import { maxTopicsPerUser } from './topics.service.ts';

const mine = '/api/users/me/topics';

describe('topics', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const put = (user: TestUser, body: unknown) => t.request({ method: 'PUT', url: mine, token: user.token, body });
  const slugs = (res: { json: any }) => res.json.data.map((topic: any) => topic.attributes.slug);

  it('lists the catalogue in catalogue order, each topic with its icon and hashtags, labels in the negotiated locale', async () => {
    const res = await t.request({ method: 'GET', url: '/api/topics' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/vnd.api+json');
    assert.equal(res.json.meta.limit, 50);
    assert.ok(res.json.data.length >= 12 && res.json.data.length <= 16, `${res.json.data.length} topics`);
    assert.equal(res.json.links.next, null);
    const beaches = res.json.data[0];
    assert.equal(beaches.type, 'topics');
    assert.match(beaches.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual(beaches.attributes, {
      slug: 'beaches',
      label: 'Beaches',
      icon: 'beach',
      hashtags: ['beach', 'beaches', 'seaside', 'coast', 'surf'],
    });
    for (const topic of res.json.data) {
      assert.ok(topic.attributes.hashtags.length > 0, topic.attributes.slug);
      for (const tag of topic.attributes.hashtags) {
        assert.match(tag, hashtagPattern);
        assert.equal(tag, tag.toLowerCase());
      }
      assert.notEqual(topic.attributes.label, topic.attributes.slug, `${topic.attributes.slug} has an en-US label`);
    }
    const french = await t.request({ method: 'GET', url: '/api/topics', headers: { 'accept-language': 'fr' } });
    assert.equal(french.headers['content-language'], 'fr-FR');
    assert.deepEqual(slugs(french), slugs(res));
    assert.equal(french.json.data[0].attributes.label, 'Plages');
    const labels = new Map(res.json.data.map((topic: any) => [topic.id, topic.attributes.label]));
    for (const topic of french.json.data) {
      assert.notEqual(topic.attributes.label, topic.attributes.slug, `${topic.attributes.slug} has a fr-FR label`);
    }
    assert.notDeepEqual(
      french.json.data.map((topic: any) => topic.attributes.label),
      [...labels.values()],
    );
  });

  it('pages the catalogue with keyset cursors both ways; bad paging is 400', async () => {
    const all = slugs(await t.request({ method: 'GET', url: '/api/topics?limit=100' }));
    const seen: string[] = [];
    let next: string | null = '/api/topics?limit=4';
    let last: any;
    while (next) {
      last = await t.request({ method: 'GET', url: next });
      assert.equal(last.statusCode, 200);
      seen.push(...slugs(last));
      next = last.json.links.next;
    }
    assert.deepEqual(seen, all);
    const back = await t.request({ method: 'GET', url: last.json.links.prev });
    assert.deepEqual(slugs(back), all.slice(-4 - slugs(last).length, -slugs(last).length));
    for (const query of ['limit=0', 'limit=101', 'cursor=nope', 'page=2']) {
      const res = await t.request({ method: 'GET', url: `/api/topics?${query}` });
      assert.equal(res.statusCode, 400, query);
      assert.ok(res.json.errors[0].source.parameter, query);
    }
  });

  it('replaces my topics with PUT: duplicates and case folded, kept in catalogue order, [] clears them', async () => {
    const ana = await createUser(t);
    const empty = await t.request({ method: 'GET', url: mine, token: ana.token });
    assert.equal(empty.statusCode, 200);
    assert.deepEqual(empty.json.data, []);
    assert.equal(empty.json.meta.maxTopics, maxTopicsPerUser);

    const set = await put(ana, { topics: ['hiking', 'beaches', 'HIKING', ' food ', 'beaches'] });
    assert.equal(set.statusCode, 200);
    assert.deepEqual(slugs(set), ['beaches', 'hiking', 'food']);
    assert.deepEqual(set.json.meta, { count: 3, maxTopics: maxTopicsPerUser });
    assert.equal(set.json.data[0].type, 'topics');
    assert.deepEqual(slugs(await t.request({ method: 'GET', url: mine, token: ana.token })), [
      'beaches',
      'hiking',
      'food',
    ]);

    const replaced = await put(ana, { topics: ['nightlife', 'hiking'] });
    assert.deepEqual(slugs(replaced), ['hiking', 'nightlife']);
    const french = await t.request({
      method: 'GET',
      url: mine,
      token: ana.token,
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.deepEqual(
      french.json.data.map((topic: any) => topic.attributes.label),
      ['Randonnée', 'Vie nocturne'],
    );

    const cleared = await put(ana, { topics: [] });
    assert.equal(cleared.statusCode, 200);
    assert.deepEqual(cleared.json.data, []);
    assert.deepEqual((await t.request({ method: 'GET', url: mine, token: ana.token })).json.data, []);
  });

  it("keeps each user's topics their own, and pages them", async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    await put(ana, { topics: ['beaches', 'mountains', 'hiking', 'food', 'islands'] });
    await put(bob, { topics: ['festivals'] });
    const first = await t.request({ method: 'GET', url: `${mine}?limit=2`, token: ana.token });
    assert.deepEqual(slugs(first), ['beaches', 'mountains']);
    const second = await t.request({ method: 'GET', url: first.json.links.next, token: ana.token });
    assert.deepEqual(slugs(second), ['hiking', 'food']);
    const third = await t.request({ method: 'GET', url: second.json.links.next, token: ana.token });
    assert.deepEqual(slugs(third), ['islands']);
    assert.equal(third.json.links.next, null);
    const catalogueCursor = (await t.request({ method: 'GET', url: '/api/topics?limit=1' })).json.links.next.split(
      'cursor=',
    )[1];
    const foreign = await t.request({ method: 'GET', url: `${mine}?cursor=${catalogueCursor}`, token: ana.token });
    assert.equal(foreign.statusCode, 400, "a cursor of the catalogue is not one of my topics' list");
    assert.equal(foreign.json.errors[0].code, 'invalidCursor');
    assert.deepEqual(slugs(await t.request({ method: 'GET', url: mine, token: bob.token })), ['festivals']);
  });

  it('refuses unknown slugs with one 422 per bad element, and changes nothing', async () => {
    const ana = await createUser(t);
    await put(ana, { topics: ['food'] });
    const res = await put(ana, { topics: ['beaches', 'atlantis', 'food', 'moon-base', 'atlantis'] });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res.json.errors.map((error: any) => [error.code, error.source.pointer, error.meta.slug]),
      [
        ['validationFailed', '/topics/1', 'atlantis'],
        ['validationFailed', '/topics/3', 'moon-base'],
        ['validationFailed', '/topics/4', 'atlantis'],
      ],
    );
    assert.match(res.json.errors[0].detail, /unknown topic/);
    assert.deepEqual(slugs(await t.request({ method: 'GET', url: mine, token: ana.token })), ['food']);
  });

  it(`refuses more than ${maxTopicsPerUser} different topics, and malformed bodies, with pointers`, async () => {
    const ana = await createUser(t);
    const all = slugs(await t.request({ method: 'GET', url: '/api/topics?limit=100' }));
    const tooMany = await put(ana, { topics: all.slice(0, maxTopicsPerUser + 1) });
    assert.equal(tooMany.statusCode, 422);
    assert.equal(tooMany.json.errors[0].source.pointer, '/topics');
    assert.equal(tooMany.json.errors[0].meta.maxTopics, maxTopicsPerUser);
    const exactly = await put(ana, { topics: [...all.slice(0, maxTopicsPerUser), all[0]] });
    assert.equal(exactly.statusCode, 200, 'duplicates do not count');
    assert.equal(exactly.json.meta.count, maxTopicsPerUser);
    const cases: Array<[unknown, string]> = [
      [{}, '/topics'],
      [{ topics: 'beaches' }, '/topics'],
      [{ topics: ['beaches', 7] }, '/topics/1'],
      [{ topics: ['beaches'], extra: true }, '/extra'],
      [{ topics: Array.from({ length: 101 }, () => 'food') }, '/topics'],
      [[], ''],
    ];
    for (const [body, pointer] of cases) {
      const res = await put(ana, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 60));
      assert.ok(
        res.json.errors.some((error: any) => error.code === 'validationFailed' && error.source.pointer === pointer),
        JSON.stringify(res.json),
      );
    }
    const notJson = await t.request({
      method: 'PUT',
      url: mine,
      token: ana.token,
      headers: { 'content-type': 'application/json' },
      payload: '{"topics": [',
    });
    assert.equal(notJson.statusCode, 400);
    assert.equal(notJson.json.errors[0].code, 'malformedJson');
    assert.equal((await t.request({ method: 'GET', url: mine, token: ana.token })).json.data.length, maxTopicsPerUser);
  });

  it('refuses my topics without a token (401)', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const res = await t.request({ method, url: mine, body: method === 'PUT' ? { topics: [] } : undefined });
      assert.equal(res.statusCode, 401, method);
      assert.equal(res.json.errors[0].code, 'unauthenticated');
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    }
  });

  it('hashtagsOfUser is the sorted union of the hashtags of my topics, and follows PUT', async () => {
    const ana = await createUser(t);
    const { topics } = t.services.areas.topics;
    assert.deepEqual(await topics.hashtagsOfUser(ana.id), []);
    await put(ana, { topics: ['photography-spots', 'beaches'] });
    const catalogue = (await t.request({ method: 'GET', url: '/api/topics?limit=100' })).json.data;
    const tagsOf = (slug: string) => catalogue.find((topic: any) => topic.attributes.slug === slug).attributes.hashtags;
    const expected = [...new Set([...tagsOf('photography-spots'), ...tagsOf('beaches')])].sort();
    assert.deepEqual(await topics.hashtagsOfUser(ana.id), expected);
    await put(ana, { topics: ['food'] });
    assert.deepEqual(await topics.hashtagsOfUser(ana.id), [...tagsOf('food')].sort());
  });

  it('lets parallel replacements of one user all succeed, leaving one of the sets', async () => {
    const ana = await createUser(t);
    const sets = [['beaches', 'food'], ['hiking'], ['islands', 'nightlife', 'festivals'], ['food'], ['mountains']];
    const results = await Promise.all(sets.map((topics) => put(ana, { topics })));
    assert.deepEqual(
      results.map((res) => res.statusCode),
      sets.map(() => 200),
    );
    const final = slugs(await t.request({ method: 'GET', url: mine, token: ana.token })).sort();
    assert.ok(
      sets.some((set) => JSON.stringify([...set].sort()) === JSON.stringify(final)),
      `one whole set wins: ${final}`,
    );
  });
});
