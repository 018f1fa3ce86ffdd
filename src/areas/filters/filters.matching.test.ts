/** How keywords match, decided by the database on both engines: folding, whole words, literal characters, size. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('keyword filters: matching', () => {
  let t: TestApp;
  const addFilter = async (user: TestUser, keywords: { keyword: string; wholeWord?: boolean }[], title = 'Mine') => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users/me/filters',
      token: user.token,
      body: { title, context: ['feeds'], action: 'warn', keywords },
    });
    assert.equal(res.statusCode, 201, JSON.stringify(res.json));
  };
  /** The keywords of the viewer's filters each text matches. */
  const matchesOf = async (user: TestUser, texts: string[]) =>
    (await t.services.areas.filters.filters.warningsFor(user.id, 'feeds', texts)).map((results) =>
      results.flatMap((result) => result.matches).sort(),
    );

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('folds case and accents both ways, and takes every character of a keyword literally', async () => {
    const user = await createUser(t);
    await addFilter(user, [
      { keyword: 'Café' },
      { keyword: 'creme' },
      { keyword: 'c++' },
      { keyword: 'a.b' },
      { keyword: '(x)' },
      { keyword: '#travel' },
      { keyword: 'œuvre' },
      { keyword: 'port', wholeWord: false },
    ]);
    assert.deepEqual(
      await matchesOf(user, [
        'un CAFE noir',
        'Crème brûlée',
        'I write C++ daily',
        'axb',
        'a.b.c',
        'see (x) here',
        'x',
        'My #Travel diary',
        'travel light',
        "L'OEUVRE complète",
        'Airport',
        'cafeteria',
      ]),
      [['Café'], ['creme'], ['c++'], [], ['a.b'], ['(x)'], [], ['#travel'], [], ['œuvre'], ['port'], []],
    );
  });

  it('holds a user at the limits: 100 filters of 50 keywords of 100 characters, hiding in a list', async () => {
    const user = await createUser(t);
    const owner = await createUser(t);
    await createMediaRow(t, owner.id, { description: 'Nothing to hide', hashtags: [] });
    const hidden = await createMediaRow(t, owner.id, { description: `Spot ${'z'.repeat(96)}99x49`, hashtags: [] });
    for (let filter = 0; filter < 100; filter++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/users/me/filters',
        token: user.token,
        body: {
          title: `Filter ${filter}`,
          context: ['feeds'],
          action: filter % 2 === 0 ? 'warn' : 'hide',
          keywords: Array.from({ length: 50 }, (_, keyword) => ({
            keyword: `${'z'.repeat(96)}${filter}x${keyword}`.slice(-100),
            wholeWord: keyword % 2 === 0,
          })),
        },
      });
      assert.equal(res.statusCode, 201);
    }
    const list = await t.request({ method: 'GET', url: `/api/users/${owner.id}/media`, token: user.token });
    assert.equal(list.statusCode, 200, JSON.stringify(list.json));
    assert.deepEqual(
      list.json.data.map((item: any) => item.attributes.description),
      ['Nothing to hide'],
    );
    assert.ok(!list.json.data.some((item: any) => item.id === hidden.id));
  });
});
