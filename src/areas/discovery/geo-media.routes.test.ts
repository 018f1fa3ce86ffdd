/** Media by place: nearby, recommended around a centre, and trending in a country, on both engines. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';

let t: TestApp;
let owner: TestUser;
let viewer: TestUser;

const paris = { latitude: 48.8566, longitude: 2.3522 };
/** A point `metres` north of Paris's centre (a degree of latitude is about 111,195 m on earthdistance's sphere). */
const northOfParis = (metres: number) => ({ latitude: paris.latitude + metres / 111_195, longitude: paris.longitude });

const ids = (response: { json: { data: Array<{ id: string }> } }) => response.json.data.map((item) => item.id);

/** A city's id from the geography search, e.g. "Lyon" in France. */
async function cityId(name: string, country: string): Promise<string> {
  const response = await t.request({ method: 'GET', url: `/api/cities/search?q=${encodeURIComponent(name)}` });
  const city = response.json.data.find(
    (item: { attributes: { countryCode: string } }) => item.attributes.countryCode === country,
  );
  assert.ok(city, `${name} (${country}) is a known city`);
  return city.id;
}

async function chooseBirthCity(user: TestUser, id: string): Promise<void> {
  const response = await t.request({
    method: 'PATCH',
    url: '/api/users/me/settings',
    token: user.token,
    body: { birthCityId: id },
  });
  assert.equal(response.statusCode, 200, response.body);
}

before(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  viewer = await createUser(t);
});
after(() => t.close());

describe('GET /api/media/nearby', () => {
  const placed: Record<string, string> = {};

  before(async () => {
    for (const metres of [0, 1000, 3000, 8000]) {
      placed[metres] = (await createMediaRow(t, owner.id, { ...northOfParis(metres), hashtags: ['paris'] })).id;
    }
  });

  it('answers the media within the distance, nearest first, each with its distance in metres', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/media/nearby?lat=${paris.latitude}&lng=${paris.longitude}`,
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(ids(response), [placed[0], placed[1000], placed[3000]]);
    const distances = response.json.data.map((item: { meta: { distance: number } }) => item.meta.distance);
    assert.ok(Math.abs(distances[0]) <= 1 && Math.abs(distances[1] - 1000) <= 5 && Math.abs(distances[2] - 3000) <= 5);
    assert.equal(response.json.meta.distance, 5000);
    assert.equal(response.json.data[0].type, 'media');
    assert.deepEqual(response.json.data[0].attributes.position, northOfParis(0));
  });

  it('widens to the given distance and pages nearest first', async () => {
    const base = `/api/media/nearby?lat=${paris.latitude}&lng=${paris.longitude}&distance=10000&limit=2`;
    const first = await t.request({ method: 'GET', url: base });
    assert.deepEqual(ids(first), [placed[0], placed[1000]]);
    const next = await t.request({ method: 'GET', url: first.json.links.next.replace('http://127.0.0.1:3000', '') });
    assert.deepEqual(ids(next), [placed[3000], placed[8000]]);
    assert.equal(next.json.links.next, null);
    const back = await t.request({ method: 'GET', url: next.json.links.prev.replace('http://127.0.0.1:3000', '') });
    assert.deepEqual(ids(back), [placed[0], placed[1000]]);
  });

  it('leaves out what is not placed in public: hidden, unpublished, private positions, avatars, banned owners', async () => {
    const near = northOfParis(500);
    const hidden = await createMediaRow(t, owner.id, { ...near, flag: 1 });
    const unpublished = await createMediaRow(t, owner.id, { ...near, published: false });
    const privatePosition = await createMediaRow(t, owner.id, { ...near, locationPublic: false });
    const avatar = await createMediaRow(t, owner.id, { ...near, kind: 'avatar' });
    const banned = await createUser(t);
    const ofBanned = await createMediaRow(t, banned.id, near);
    // Banned as operators ban (the ban reaches the media rows' owner_banned, which lists read).
    const ban = await t.request({
      method: 'PUT',
      url: `/admin/users/${banned.hex}/ban`,
      headers: { authorization: `Bearer ${adminToken}` },
      body: { reason: 'spam' },
    });
    assert.equal(ban.statusCode, 200);
    const shown = await createMediaRow(t, owner.id, near);
    const response = await t.request({
      method: 'GET',
      url: `/api/media/nearby?lat=${near.latitude}&lng=${near.longitude}&distance=100`,
    });
    assert.deepEqual(ids(response), [shown.id]);
    for (const left of [hidden, unpublished, privatePosition, avatar, ofBanned])
      assert.ok(!ids(response).includes(left.id));
  });

  it('pages through media at exactly the same spot without skipping or repeating one', async () => {
    const spot = { latitude: -33.8568, longitude: 151.2153 };
    const same = [];
    for (let i = 0; i < 5; i++) same.push((await createMediaRow(t, owner.id, spot)).id);
    const seen: string[] = [];
    let url: string | null = `/api/media/nearby?lat=${spot.latitude}&lng=${spot.longitude}&distance=100&limit=2`;
    while (url !== null) {
      const response = await t.request({ method: 'GET', url });
      assert.equal(response.statusCode, 200);
      seen.push(...ids(response));
      url = response.json.links.next?.replace('http://127.0.0.1:3000', '') ?? null;
    }
    assert.deepEqual(seen, [...same].sort());
    const last = await t.request({
      method: 'GET',
      url: `/api/media/nearby?lat=${spot.latitude}&lng=${spot.longitude}&distance=100&limit=2&before=${encodeURIComponent('x')}`,
    });
    assert.equal(last.statusCode, 400);
  });

  it('answers an empty page far from everything', async () => {
    const response = await t.request({ method: 'GET', url: '/api/media/nearby?lat=-75&lng=120' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json.data, []);
    assert.equal(response.json.links.next, null);
  });

  for (const [query, parameter] of [
    ['lng=2', 'lat'],
    ['lat=NaN&lng=2', 'lat'],
    ['lat=91&lng=2', 'lat'],
    ['lat=-90.5&lng=2', 'lat'],
    ['lat=48&lng=Infinity', 'lng'],
    ['lat=48&lng=180.01', 'lng'],
    ['lat=48&lng=2&distance=0', 'distance'],
    ['lat=48&lng=2&distance=-5', 'distance'],
    ['lat=48&lng=2&distance=1e12', 'distance'],
    ['lat=48&lng=2&limit=1000000', 'limit'],
    ['lat=48&lng=2&cursor=abc', 'cursor'],
  ] as const) {
    it(`answers 400 naming ${parameter} for ?${query}`, async () => {
      const response = await t.request({ method: 'GET', url: `/api/media/nearby?${query}` });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json.errors[0].source.parameter, parameter);
    });
  }
});

describe('GET /api/media/recommended/nearby', () => {
  const centre = { latitude: 45.764, longitude: 4.8357 }; // Lyon
  let mostLiked: string;
  let liked: string;
  let food: string;

  before(async () => {
    mostLiked = (await createMediaRow(t, owner.id, { ...centre, likesCount: 9, hashtags: ['hiking'] })).id;
    liked = (await createMediaRow(t, owner.id, { latitude: 45.8, longitude: 4.9, likesCount: 4, hashtags: ['alps'] }))
      .id;
    food = (
      await createMediaRow(t, owner.id, { latitude: 45.7, longitude: 4.8, likesCount: 1, hashtags: ['streetfood'] })
    ).id;
  });

  const url = (query: string) =>
    `/api/media/recommended/nearby?lat=${centre.latitude}&lng=${centre.longitude}&${query}`;

  it('answers the media around the centre, most liked first', async () => {
    const response = await t.request({ method: 'GET', url: url('distance=20000') });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(ids(response), [mostLiked, liked, food]);
    assert.equal(response.json.meta.personalized, false);
  });

  it("filters through the viewer's topics unless personalize is 0; anonymous viewers are never filtered", async () => {
    const topics = await t.request({ method: 'GET', url: '/api/topics?limit=100' });
    const foodTopic = topics.json.data.find((topic: { attributes: { hashtags: string[] } }) =>
      topic.attributes.hashtags.includes('streetfood'),
    );
    assert.ok(foodTopic, 'a topic stands for #streetfood');
    const put = await t.request({
      method: 'PUT',
      url: '/api/users/me/topics',
      token: viewer.token,
      body: { topics: [foodTopic.attributes.slug] },
    });
    assert.equal(put.statusCode, 200);

    const personal = await t.request({ method: 'GET', url: url('distance=20000'), token: viewer.token });
    assert.deepEqual(ids(personal), [food]);
    assert.equal(personal.json.meta.personalized, true);
    const off = await t.request({ method: 'GET', url: url('distance=20000&personalize=0'), token: viewer.token });
    assert.deepEqual(ids(off), [mostLiked, liked, food]);
    assert.equal(off.json.meta.personalized, false);
    const anonymous = await t.request({ method: 'GET', url: url('distance=20000&personalize=1') });
    assert.deepEqual(ids(anonymous), [mostLiked, liked, food]);
  });

  it('answers 422 naming lat and lng without a centre, a viewer or a birth city', async () => {
    for (const token of [undefined, owner.token]) {
      const response = await t.request({ method: 'GET', url: '/api/media/recommended/nearby', token });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(
        response.json.errors.map((error: { source: { parameter: string } }) => error.source.parameter),
        ['lat', 'lng'],
      );
    }
    const half = await t.request({ method: 'GET', url: '/api/media/recommended/nearby?lat=45' });
    assert.equal(half.statusCode, 422);
    assert.equal(half.json.errors[0].source.parameter, 'lng');
  });

  it("centres on the viewer's birth city without lat and lng", async () => {
    const traveller = await createUser(t);
    await chooseBirthCity(traveller, await cityId('Lyon', 'FR'));
    const response = await t.request({
      method: 'GET',
      url: '/api/media/recommended/nearby?distance=20000',
      token: traveller.token,
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(ids(response), [mostLiked, liked, food]);
  });

  it('answers 400 for a bad personalize or distance', async () => {
    for (const [query, parameter] of [
      ['personalize=yes', 'personalize'],
      ['distance=0', 'distance'],
      ['distance=100001', 'distance'],
    ] as const) {
      const response = await t.request({ method: 'GET', url: url(query) });
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json.errors[0].source.parameter, parameter);
    }
  });
});

describe('GET /api/media/trending', () => {
  let first: string;
  let second: string;
  let italian: string;
  let stale: string;

  const like = async (mediaId: string, user: TestUser) => {
    const response = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${mediaId}/reaction`,
      token: user.token,
      body: { type: 'like' },
    });
    assert.equal(response.statusCode, 200);
  };

  before(async () => {
    const at = { latitude: 43.6, longitude: 1.44, countryCode: 'FR' };
    stale = (await createMediaRow(t, owner.id, { ...at, hashtags: ['old'] })).id;
    first = (await createMediaRow(t, owner.id, { ...at, hashtags: ['streetfood'] })).id;
    second = (await createMediaRow(t, owner.id, { ...at, hashtags: ['beach'] })).id;
    italian = (await createMediaRow(t, owner.id, { latitude: 41.9, longitude: 12.5, countryCode: 'IT' })).id;
    const likers = [viewer, ...(await Promise.all([createUser(t), createUser(t), createUser(t)]))];
    // Liked ten days ago: outside a week's window, inside a month's.
    for (const user of likers) await like(stale, user);
    t.clock.advance(10 * 86_400_000);
    for (const user of likers.slice(0, 3)) await like(first, user);
    await like(second, likers[0]!);
    await like(italian, likers[0]!);
  });

  it("ranks a country's media by likes within the window", async () => {
    const week = await t.request({ method: 'GET', url: '/api/media/trending?country=fr' });
    assert.equal(week.statusCode, 200);
    assert.deepEqual(ids(week), [first, second]);
    assert.deepEqual(
      week.json.data.map((item: { meta: { windowLikes: number } }) => item.meta.windowLikes),
      [3, 1],
    );
    assert.deepEqual(week.json.meta, { limit: 20, country: 'FR', windowDays: 7, personalized: false });
    const month = await t.request({ method: 'GET', url: '/api/media/trending?country=FR&windowDays=30' });
    assert.deepEqual(ids(month), [stale, first, second]);
    const italy = await t.request({ method: 'GET', url: '/api/media/trending?country=IT' });
    assert.deepEqual(ids(italy), [italian]);
  });

  it("pages, and filters through the viewer's topics", async () => {
    const page = await t.request({ method: 'GET', url: '/api/media/trending?country=FR&limit=1' });
    assert.deepEqual(ids(page), [first]);
    const next = await t.request({ method: 'GET', url: page.json.links.next.replace('http://127.0.0.1:3000', '') });
    assert.equal(next.statusCode, 200, next.body);
    assert.deepEqual(ids(next), [second]);
    // The viewer's topics (set above) stand for #streetfood.
    const personal = await t.request({ method: 'GET', url: '/api/media/trending?country=FR', token: viewer.token });
    assert.deepEqual(ids(personal), [first]);
  });

  it('answers 422 naming country without a country, a viewer or a birth city, and 400 for bad values', async () => {
    const missing = await t.request({ method: 'GET', url: '/api/media/trending' });
    assert.equal(missing.statusCode, 422);
    assert.equal(missing.json.errors[0].source.parameter, 'country');
    for (const [query, parameter] of [
      ['country=XX', 'country'],
      ['country=FRA', 'country'],
      ['country=F%25', 'country'],
      ['country=FR&windowDays=0', 'windowDays'],
      ['country=FR&windowDays=1000000000000', 'windowDays'],
      ['country=FR&windowDays=1.5', 'windowDays'],
    ] as const) {
      const response = await t.request({ method: 'GET', url: `/api/media/trending?${query}` });
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json.errors[0].source.parameter, parameter);
    }
  });

  it("trends in the viewer's birth city's country without a country", async () => {
    const roman = await createUser(t);
    await chooseBirthCity(roman, await cityId('Rome', 'IT'));
    const response = await t.request({ method: 'GET', url: '/api/media/trending', token: roman.token });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(ids(response), [italian]);
    assert.equal(response.json.meta.country, 'IT');
  });

  it('leaves out media hidden since they were liked', async () => {
    await updateMediaRow(t, second, { flag: 2 });
    const response = await t.request({ method: 'GET', url: '/api/media/trending?country=FR' });
    assert.deepEqual(ids(response), [first]);
  });

  it('fills a page past the ranked media that left public view since the ranking was made', async () => {
    const inSpain = { latitude: 40.42, longitude: -3.7, countryCode: 'ES' };
    const [top, runnerUp, third] = [
      (await createMediaRow(t, owner.id, inSpain)).id,
      (await createMediaRow(t, owner.id, inSpain)).id,
      (await createMediaRow(t, owner.id, inSpain)).id,
    ];
    const likers = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    for (const user of likers) await like(top, user);
    for (const user of likers.slice(0, 2)) await like(runnerUp, user);
    await like(third, likers[0]!);
    const ranked = await t.request({ method: 'GET', url: '/api/media/trending?country=ES&limit=1' });
    assert.deepEqual(ids(ranked), [top]);
    // The ranking is kept a minute; the page's first two entries are now hidden, so it reads past them.
    await updateMediaRow(t, top, { flag: 2 });
    await updateMediaRow(t, runnerUp, { flag: 2 });
    const page = await t.request({ method: 'GET', url: '/api/media/trending?country=ES&limit=1' });
    assert.deepEqual(ids(page), [third]);
    assert.equal(page.json.links.next, null);
  });

  it('keeps a ranking a minute: new likes count once it is made again', async () => {
    const before = await t.request({ method: 'GET', url: '/api/media/trending?country=IT' });
    assert.deepEqual(ids(before), [italian]);
    const newcomer = (await createMediaRow(t, owner.id, { latitude: 45.46, longitude: 9.19, countryCode: 'IT' })).id;
    await like(newcomer, owner);
    await like(newcomer, viewer);
    const cached = await t.request({ method: 'GET', url: '/api/media/trending?country=IT' });
    assert.deepEqual(ids(cached), [italian]);
    t.clock.advance(61_000);
    const fresh = await t.request({ method: 'GET', url: '/api/media/trending?country=IT' });
    assert.deepEqual(ids(fresh), [newcomer, italian]);
  });
});

describe('an anonymous viewer (no keyword-filter pass) and a signed-in one with no filter', () => {
  it('are answered the same bytes on every page of nearby, recommended and trending', async () => {
    const plain = await createUser(t);
    const around = `lat=${paris.latitude}&lng=${paris.longitude}`;
    for (const url of [
      `/api/media/nearby?${around}&distance=10000&limit=2`,
      `/api/media/recommended/nearby?${around}&personalize=0&limit=2`,
      '/api/media/trending?country=FR&personalize=0&windowDays=30&limit=2',
      '/api/media/trending?country=IT&personalize=0',
    ]) {
      let pages = 0;
      for (let next: string | null = url; next !== null; pages++) {
        const anonymous = await t.request({ method: 'GET', url: next });
        const signedIn = await t.request({ method: 'GET', url: next, token: plain.token });
        assert.equal(anonymous.statusCode, 200, anonymous.body);
        assert.ok(anonymous.json.data.length > 0, next);
        assert.equal(anonymous.body, signedIn.body, next);
        next = anonymous.json.links.next?.replace('http://127.0.0.1:3000', '') ?? null;
      }
      assert.ok(pages >= 1, url);
    }
  });
});
