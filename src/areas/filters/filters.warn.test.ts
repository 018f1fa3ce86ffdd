/** warn: the items untouched when the viewer has no warn filter in force in the context, else copies with `filtered`. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';

describe('keyword filters: warn', () => {
  let t: TestApp;
  const items = [{ text: 'a troll here' }, { text: 'nothing' }];
  const textOf = (item: { text: string }) => item.text;
  const addFilter = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users/me/filters',
      token: user.token,
      body: { title: 'Mine', keywords: [{ keyword: 'troll' }], ...body },
    });
    assert.equal(res.statusCode, 201, JSON.stringify(res.json));
  };
  const filters = () => t.services.areas.filters.filters;

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers the items themselves when no warn filter is in force in the context', async () => {
    const user = await createUser(t);
    assert.equal(await filters().warn(null, 'notifications', items, textOf), items);
    assert.equal(await filters().warn(user.id, 'notifications', items, textOf), items);
    // A hide filter of the context, a warn filter of another context and an expired one change nothing.
    await addFilter(user, { action: 'hide', context: ['notifications'] });
    await addFilter(user, { action: 'warn', context: ['feeds'] });
    await addFilter(user, {
      action: 'warn',
      context: ['notifications'],
      expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    t.clock.advance(120_000);
    assert.equal(await filters().warn(user.id, 'notifications', items, textOf), items);
    assert.equal(
      items.some((item) => 'filtered' in item),
      false,
    );
  });

  it('answers copies with the filters each matched when a warn filter is in force', async () => {
    const user = await createUser(t);
    await addFilter(user, { action: 'warn', context: ['notifications'] });
    const warned = await filters().warn(user.id, 'notifications', items, textOf);
    assert.deepEqual(
      warned.map((item) => item.text),
      items.map((item) => item.text),
    );
    assert.equal(
      items.some((item) => 'filtered' in item),
      false,
    );
    assert.deepEqual(
      warned.map((item) => item.filtered?.map((result) => result.matches)),
      [[['troll']], []],
    );
  });
});
