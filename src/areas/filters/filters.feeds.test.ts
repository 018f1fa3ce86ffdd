/** Keyword filters on a list of media (context feeds): hide in the statement, warn on the page. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('keyword filters on media lists', () => {
  let t: TestApp;
  let owner: TestUser;
  const post = (description: string, hashtags: string[] = []) => createMediaRow(t, owner.id, { description, hashtags });
  const addFilter = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users/me/filters',
      token: user.token,
      body: { title: 'Mine', context: ['feeds'], action: 'hide', ...body },
    });
    assert.equal(res.statusCode, 201, JSON.stringify(res.json));
    return res.json.data;
  };
  /** Every page of the owner's media as the viewer reads it, following `next`. */
  const allPages = async (viewer: TestUser | null, limit: number) => {
    const pages: { descriptions: string[]; items: any[] }[] = [];
    let url: string | null = `/api/users/${owner.id}/media?limit=${limit}`;
    while (url !== null) {
      const res = await t.request({ method: 'GET', url, token: viewer?.token });
      assert.equal(res.statusCode, 200, JSON.stringify(res.json));
      pages.push({ descriptions: res.json.data.map((item: any) => item.attributes.description), items: res.json.data });
      url = res.json.links.next;
    }
    return pages;
  };

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('hides matches in the statement: every page full, cursors exact, even where a whole page would match', async () => {
    owner = await createUser(t);
    const viewer = await createUser(t);
    // Oldest first; the newest three all match, so a first page of 2 cut before filtering would be empty.
    for (const description of [
      'beach 1',
      'Un CAFÉ à Paris',
      'beach 2',
      'cafeteria lunch',
      'beach 3',
      'Le café du coin',
      'Cafe crème',
      'morning cafe',
    ])
      await post(description);
    await addFilter(viewer, { keywords: [{ keyword: 'Café' }] });

    const pages = await allPages(viewer, 2);
    assert.deepEqual(
      pages.map((page) => page.descriptions),
      [
        ['beach 3', 'cafeteria lunch'],
        ['beach 2', 'beach 1'],
      ],
    );
    const anonymous = await allPages(null, 2);
    assert.equal(anonymous.flatMap((page) => page.descriptions).length, 8, 'nothing changes for anonymous readers');
    assert.equal(anonymous[0]!.items[0].meta, undefined);

    // Backwards from the last page: the previous page is exact too.
    const last = await t.request({ method: 'GET', url: `/api/users/${owner.id}/media?limit=2`, token: viewer.token });
    const second = await t.request({ method: 'GET', url: last.json.links.next, token: viewer.token });
    const back = await t.request({ method: 'GET', url: second.json.links.prev, token: viewer.token });
    assert.deepEqual(
      back.json.data.map((item: any) => item.attributes.description),
      ['beach 3', 'cafeteria lunch'],
    );
  });

  it('matches whole words or anywhere, whatever the case and accents, in descriptions and hashtags', async () => {
    owner = await createUser(t);
    const viewer = await createUser(t);
    await post('Crème brûlée', []);
    await post('Tourism office', []);
    await post('A tour of the port', []);
    await post('Plain view', ['Sunset']);
    await post('Nothing to see', []);
    await addFilter(viewer, {
      keywords: [{ keyword: 'creme BRULEE' }, { keyword: 'TOUR', wholeWord: false }, { keyword: '#sunset' }],
    });
    assert.deepEqual(
      (await allPages(viewer, 20)).flatMap((page) => page.descriptions),
      ['Nothing to see'],
    );

    const wholeWordViewer = await createUser(t);
    await addFilter(wholeWordViewer, { keywords: [{ keyword: 'tour' }, { keyword: 'sunset' }] });
    assert.deepEqual(
      (await allPages(wholeWordViewer, 20)).flatMap((page) => page.descriptions),
      ['Nothing to see', 'Tourism office', 'Crème brûlée'],
    );
  });

  it('warns: the item stays and carries meta.filtered with the filters and keywords it matched', async () => {
    owner = await createUser(t);
    const viewer = await createUser(t);
    await post('Quiet beach at dawn');
    await post('Street food market', ['food']);
    await post('Harbour');
    const warn = await addFilter(viewer, {
      title: 'Food',
      action: 'warn',
      keywords: [{ keyword: 'food' }, { keyword: 'market' }, { keyword: 'pizza' }],
    });
    const other = await addFilter(viewer, { title: 'Street', action: 'warn', keywords: [{ keyword: 'STREET' }] });
    const [page] = await allPages(viewer, 20);
    assert.deepEqual(page!.descriptions, ['Harbour', 'Street food market', 'Quiet beach at dawn']);
    assert.equal(page!.items[0].meta, undefined);
    assert.deepEqual(
      [...page!.items[1].meta.filtered].sort((a: any, b: any) => a.title.localeCompare(b.title)),
      [
        { id: warn.id, title: 'Food', matches: ['food', 'market'] },
        { id: other.id, title: 'Street', matches: ['STREET'] },
      ],
    );
    assert.equal(page!.items[2].meta, undefined);
  });

  it('applies a filter until it expires, and only in its contexts; a change applies at once', async () => {
    owner = await createUser(t);
    const viewer = await createUser(t);
    await post('Rainy day');
    await post('Sunny day');
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const filter = await addFilter(viewer, { keywords: [{ keyword: 'rainy' }], expiresAt });
    await addFilter(viewer, { context: ['comments', 'notifications'], keywords: [{ keyword: 'sunny' }] });
    const read = async () => (await allPages(viewer, 20)).flatMap((page) => page.descriptions);
    assert.deepEqual(await read(), ['Sunny day']);
    t.clock.advance(3_600_000);
    assert.deepEqual(await read(), ['Sunny day', 'Rainy day'], 'an expired filter hides nothing');
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/users/me/filters/${filter.id}`,
      token: viewer.token,
      body: { expiresAt: null, keywords: [{ keyword: 'day' }] },
    });
    assert.equal(patched.statusCode, 200);
    assert.deepEqual(await read(), [], 'the change applies to the next read');
    await t.request({ method: 'DELETE', url: `/api/users/me/filters/${filter.id}`, token: viewer.token });
    assert.deepEqual(await read(), ['Sunny day', 'Rainy day']);
  });
});

describe("keyword filters on the other lists of media: a social feed, nearby, recommended, trending, a user's likes", () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let feedCode: string;
  let likerId: string;
  const capeTown = { latitude: -33.9249, longitude: 18.4241, countryCode: 'ZA' };
  const read = async (url: string, user: TestUser | null) => {
    const res = await t.request({ method: 'GET', url, token: user?.token });
    assert.equal(res.statusCode, 200, `${url}: ${JSON.stringify(res.json)}`);
    return res.json.data.map((item: any) => ({
      description: item.attributes.description,
      filtered: item.meta?.filtered?.map((entry: any) => entry.matches),
    }));
  };
  const lists = () => [
    `/api/social-feeds/${feedCode}?limit=1`,
    `/api/media/nearby?lat=${capeTown.latitude}&lng=${capeTown.longitude}&limit=1`,
    `/api/media/recommended/nearby?lat=${capeTown.latitude}&lng=${capeTown.longitude}&limit=1`,
    '/api/media/trending?country=ZA&limit=1',
    `/api/users/${likerId}/likes?limit=1`,
  ];
  /** Every page of a list, one media a page, following `next`. */
  const everyPage = async (url: string, user: TestUser | null) => {
    const shown: any[] = [];
    for (let next: string | null = url; next !== null; ) {
      const res = await t.request({ method: 'GET', url: next, token: user?.token });
      assert.equal(res.statusCode, 200);
      assert.ok(res.json.data.length === 1 || res.json.links.next === null, `${next}: a page short before the end`);
      shown.push(...(await read(next, user)));
      next = res.json.links.next;
    }
    return shown;
  };

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    viewer = await createUser(t);
    const liker = await createUser(t);
    likerId = liker.id;
    const shown = await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: liker.token,
      body: { showReactionsPublicly: true },
    });
    assert.equal(shown.statusCode, 200);
    for (const [description, likes] of [
      ['Penguins at Boulders beach', 1],
      ['Table Mountain hike', 2],
      ['Hiking Lion’s Head', 3],
      ['Wine farm lunch', 4],
    ] as const) {
      const row = await createMediaRow(t, owner.id, { ...capeTown, description, hashtags: [], likesCount: likes });
      const like = await t.request({
        method: 'PUT',
        url: `/api/users/me/media/${row.id}/reaction`,
        token: liker.token,
        body: { type: 'like' },
      });
      assert.equal(like.statusCode, 200);
    }
    const feed = await t.request({
      method: 'POST',
      url: '/api/users/me/social-feeds',
      token: owner.token,
      body: { name: 'Cape Town' },
    });
    assert.equal(feed.statusCode, 201, JSON.stringify(feed.json));
    feedCode = feed.json.data.attributes.code;
    for (const body of [
      { action: 'hide', keywords: [{ keyword: 'HIK', wholeWord: false }] },
      { action: 'warn', keywords: [{ keyword: 'penguin', wholeWord: false }] },
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/users/me/filters',
        token: viewer.token,
        body: { title: 'Mine', context: ['feeds'], ...body },
      });
      assert.equal(res.statusCode, 201);
    }
  });
  after(() => t.close());

  it('leaves out what the viewer hides with full pages, warns on the rest, and changes nothing for others', async () => {
    for (const url of lists()) {
      const everything = await everyPage(url, null);
      assert.equal(everything.length, 4, url);
      assert.ok(
        everything.every((item) => item.filtered === undefined),
        url,
      );
      const filtered = await everyPage(url, viewer);
      assert.deepEqual(
        filtered.map((item) => item.description).sort(),
        ['Penguins at Boulders beach', 'Wine farm lunch'],
        url,
      );
      assert.deepEqual(filtered.find((item) => item.description.startsWith('Penguins')).filtered, [['penguin']], url);
      assert.equal(filtered.find((item) => item.description.startsWith('Wine')).filtered, undefined, url);
    }
  });

  it("applies blocks and mutes and the viewer's filters together: all left out, pages full, the rest warned", async () => {
    const oslo = { latitude: 59.9139, longitude: 10.7522, countryCode: 'NO' };
    const other = await createUser(t);
    const muted = await createUser(t);
    const blocker = await createUser(t);
    const liker = await createUser(t);
    const settings = await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: liker.token,
      body: { showReactionsPublicly: true },
    });
    assert.equal(settings.statusCode, 200);
    for (const [user, description] of [
      [other, 'Fjord hike'],
      [muted, 'Fjord sunset'],
      [other, 'Fjord view'],
      [blocker, 'Fjord walk'],
      [other, 'Fjord penguin'],
    ] as const) {
      const row = await createMediaRow(t, user.id, { ...oslo, description, hashtags: [], likesCount: 1 });
      const like = await t.request({
        method: 'PUT',
        url: `/api/users/me/media/${row.id}/reaction`,
        token: liker.token,
        body: { type: 'like' },
      });
      assert.equal(like.statusCode, 200);
    }
    const mute = await t.request({
      method: 'PUT',
      url: `/api/users/me/mutes/${muted.id}`,
      token: viewer.token,
      body: {},
    });
    assert.equal(mute.statusCode, 200, JSON.stringify(mute.json));
    const block = await t.request({ method: 'PUT', url: `/api/users/me/blocks/${viewer.id}`, token: blocker.token });
    assert.equal(block.statusCode, 200, JSON.stringify(block.json));
    // A user's likes apply blocks (either way), not mutes; the other lists both.
    for (const [url, expected] of [
      [`/api/media/nearby?lat=${oslo.latitude}&lng=${oslo.longitude}&limit=1`, ['Fjord penguin', 'Fjord view']],
      [
        `/api/media/recommended/nearby?lat=${oslo.latitude}&lng=${oslo.longitude}&limit=1`,
        ['Fjord penguin', 'Fjord view'],
      ],
      ['/api/media/trending?country=NO&limit=1', ['Fjord penguin', 'Fjord view']],
      [`/api/users/${liker.id}/likes?limit=1`, ['Fjord penguin', 'Fjord sunset', 'Fjord view']],
    ] as const) {
      assert.equal((await everyPage(url, null)).length, 5, url);
      const shown = await everyPage(url, viewer);
      assert.deepEqual(shown.map((item) => item.description).sort(), expected, url);
      assert.deepEqual(shown.find((item) => item.description === 'Fjord penguin').filtered, [['penguin']], url);
    }
  });
});
