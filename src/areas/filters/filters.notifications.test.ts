/** Keyword filters on my notifications (context notifications): what they read is the names in a notification. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';

describe('keyword filters on notifications', () => {
  let t: TestApp;
  let me: TestUser;

  before(async () => {
    t = await createTestApp();
    me = await createUser(t);
  });
  after(() => t.close());

  it('leaves hidden notifications out of full pages and warns on the others', async () => {
    for (const nickname of ['Zoé Spam', 'Ann', 'Bob ZOE', 'zoe', 'Carl the Troll']) {
      const follower = await createUser(t, { nickname });
      const res = await t.request({ method: 'POST', url: `/api/users/me/following/${me.id}`, token: follower.token });
      assert.equal(res.statusCode, 201);
      t.clock.advance(1000);
    }
    for (const body of [
      { action: 'hide', context: ['notifications'], keywords: [{ keyword: 'zoe' }] },
      { action: 'warn', context: ['notifications'], keywords: [{ keyword: 'troll' }] },
      { action: 'hide', context: ['feeds', 'comments'], keywords: [{ keyword: 'ann' }] },
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/users/me/filters',
        token: me.token,
        body: { title: 'Mine', ...body },
      });
      assert.equal(res.statusCode, 201);
    }
    const pages: string[][] = [];
    let troll: any;
    let url: string | null = '/api/users/me/notifications?limit=1';
    while (url !== null) {
      const res = await t.request({ method: 'GET', url, token: me.token });
      assert.equal(res.statusCode, 200, JSON.stringify(res.json));
      pages.push(res.json.data.map((item: any) => item.attributes.data.actorDisplayName ?? item.attributes.type));
      troll ??= res.json.data.find((item: any) => item.attributes.data.actorDisplayName === 'Carl the Troll');
      url = res.json.links.next;
    }
    assert.deepEqual(pages, [['Carl the Troll'], ['Ann'], ['badge.earned']], 'one a page: no page short but the last');
    assert.deepEqual(
      troll.meta.filtered.map((entry: any) => entry.matches),
      [['troll']],
    );
  });
});
