import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';

const filtersUrl = '/api/users/me/filters';
const aFilter = {
  title: 'No spoilers',
  context: ['feeds', 'comments'],
  action: 'hide',
  keywords: [{ keyword: '  Café  ' }, { keyword: 'tour', wholeWord: false }],
};

describe('keyword filters: my filters', () => {
  let t: TestApp;
  let me: TestUser;
  let other: TestUser;
  const create = (user: TestUser, body: unknown) =>
    t.request({ method: 'POST', url: filtersUrl, token: user.token, body });
  const listOf = async (user: TestUser) =>
    (await t.request({ method: 'GET', url: `${filtersUrl}?limit=100`, token: user.token })).json.data;

  before(async () => {
    t = await createTestApp();
    me = await createUser(t);
    other = await createUser(t);
  });
  after(() => t.close());

  it('creates, reads, lists newest first, changes and deletes my filters', async () => {
    const created = await create(me, { ...aFilter, context: ['comments', 'feeds', 'comments'] });
    assert.equal(created.statusCode, 201, JSON.stringify(created.json));
    const { id, type, attributes } = created.json.data;
    assert.equal(type, 'filters');
    assert.deepEqual(attributes, {
      title: 'No spoilers',
      context: ['feeds', 'comments'],
      action: 'hide',
      expiresAt: null,
      keywords: [
        { keyword: 'Café', wholeWord: true },
        { keyword: 'tour', wholeWord: false },
      ],
      createdAt: '2026-11-21T12:00:00.000+00:00',
      updatedAt: '2026-11-21T12:00:00.000+00:00',
    });
    t.clock.advance(1000);
    const second = await create(me, { ...aFilter, title: 'Second', action: 'warn' });
    assert.equal(second.statusCode, 201);

    const page = await t.request({ method: 'GET', url: `${filtersUrl}?limit=1`, token: me.token });
    assert.equal(page.statusCode, 200);
    assert.deepEqual(
      page.json.data.map((item: any) => item.attributes.title),
      ['Second'],
    );
    const next = await t.request({ method: 'GET', url: page.json.links.next, token: me.token });
    assert.deepEqual(
      next.json.data.map((item: any) => item.id),
      [id],
    );
    assert.equal(next.json.links.next, null);
    assert.deepEqual(await listOf(other), [], 'another user sees none of mine');

    t.clock.advance(1000);
    const expiresAt = '2026-11-22T12:00:00.000+00:00';
    const changed = await t.request({
      method: 'PATCH',
      url: `${filtersUrl}/${id}`,
      token: me.token,
      body: { title: 'Renamed', expiresAt, keywords: [{ keyword: 'spoiler' }] },
    });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.json.data.attributes.title, 'Renamed');
    assert.equal(changed.json.data.attributes.expiresAt, expiresAt);
    assert.equal(changed.json.data.attributes.action, 'hide', 'what the body leaves out stays');
    assert.deepEqual(changed.json.data.attributes.keywords, [{ keyword: 'spoiler', wholeWord: true }]);
    assert.equal(changed.json.data.attributes.updatedAt, '2026-11-21T12:00:02.000+00:00');
    const read = await t.request({ method: 'GET', url: `${filtersUrl}/${id}`, token: me.token });
    assert.deepEqual(read.json.data, changed.json.data);

    const deleted = await t.request({ method: 'DELETE', url: `${filtersUrl}/${id}`, token: me.token });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await t.request({ method: 'GET', url: `${filtersUrl}/${id}`, token: me.token })).statusCode, 404);
    assert.deepEqual(
      (await listOf(me)).map((item: any) => item.attributes.title),
      ['Second'],
    );
  });

  it("answers 404 for another user's filter, changing nothing", async () => {
    const mine = (await create(me, aFilter)).json.data;
    const url = `${filtersUrl}/${mine.id}`;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { title: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request({ method, url, token: other.token, body });
      assert.equal(res.statusCode, 404, `${method}`);
      assert.equal(res.json.errors[0].code, 'notFound');
    }
    assert.deepEqual((await t.request({ method: 'GET', url, token: me.token })).json.data, mine);
    assert.equal(
      (await t.request({ method: 'GET', url: `${filtersUrl}/not-a-uuid`, token: me.token })).statusCode,
      422,
    );
  });

  it('refuses bad input with 422 and a pointer, and changes nothing', async () => {
    const user = await createUser(t);
    const cases: [unknown, string][] = [
      [{ ...aFilter, keywords: [{ keyword: '' }] }, '/keywords/0/keyword'],
      [{ ...aFilter, keywords: [{ keyword: '   ' }] }, '/keywords/0/keyword'],
      [{ ...aFilter, keywords: [{ keyword: 'x'.repeat(10_000) }] }, '/keywords/0/keyword'],
      [{ ...aFilter, keywords: [] }, '/keywords'],
      [{ ...aFilter, keywords: Array.from({ length: 51 }, (_, i) => ({ keyword: `k${i}` })) }, '/keywords'],
      [{ ...aFilter, title: '' }, '/title'],
      [{ ...aFilter, title: '\u200b' }, '/title'],
      [{ ...aFilter, context: ['home'] }, '/context/0'],
      [{ ...aFilter, context: [] }, '/context'],
      [{ ...aFilter, action: 'mute' }, '/action'],
      [{ ...aFilter, expiresAt: '2026-11-21T11:59:59Z' }, '/expiresAt'],
      [{ ...aFilter, expiresAt: '2026-11-21T12:00:00Z' }, '/expiresAt'],
      [{ ...aFilter, expiresAt: 'tomorrow' }, '/expiresAt'],
      [{ ...aFilter, keywords: [{ keyword: 'a', whole: true }] }, '/keywords/0/whole'],
      [{ ...aFilter, colour: 'red' }, '/colour'],
      [{ title: 'no keywords', context: ['feeds'], action: 'hide' }, ''],
    ];
    for (const [body, pointer] of cases) {
      const res = await create(user, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 200));
      assert.equal(res.json.errors[0].code, 'validationFailed');
      if (pointer !== '') assert.equal(res.json.errors[0].source.pointer, pointer, JSON.stringify(body).slice(0, 200));
    }
    assert.deepEqual(await listOf(user), []);

    const kept = (await create(user, aFilter)).json.data;
    for (const body of [{ expiresAt: '2020-01-01T00:00:00Z' }, { keywords: [{ keyword: ' ' }] }, { context: ['x'] }]) {
      const res = await t.request({ method: 'PATCH', url: `${filtersUrl}/${kept.id}`, token: user.token, body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
    }
    assert.deepEqual((await listOf(user))[0], kept, 'a refused change changes nothing');
  });

  it('keeps at most 100 filters per user: the next is 409 filterLimitReached; deleting one makes room', async () => {
    const user = await createUser(t);
    const results = await Promise.all(
      Array.from({ length: 105 }, (_, i) => create(user, { ...aFilter, title: `Filter ${i}` })),
    );
    assert.equal(results.filter((res) => res.statusCode === 201).length, 100);
    const refused = results.filter((res) => res.statusCode === 409);
    assert.equal(refused.length, 5);
    assert.equal(refused[0]!.json.errors[0].code, 'filterLimitReached');
    assert.equal(refused[0]!.json.errors[0].meta.limit, 100);
    assert.equal((await listOf(user)).length, 100);
    const one = (await listOf(user))[0];
    await t.request({ method: 'DELETE', url: `${filtersUrl}/${one.id}`, token: user.token });
    assert.equal((await create(user, aFilter)).statusCode, 201);
  });
});
