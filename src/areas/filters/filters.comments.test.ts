/** Keyword filters on comments (context comments): top-level pages, replies and threads. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('keyword filters on comments', () => {
  let t: TestApp;
  let writer: TestUser;
  let viewer: TestUser;
  let mediaId: string;
  const comment = async (body: string, parentId?: string) => {
    const res = await t.request({
      method: 'POST',
      url: `/api/media/${mediaId}/comments`,
      token: writer.token,
      body: parentId === undefined ? { body } : { body, parentId },
    });
    assert.equal(res.statusCode, 201, JSON.stringify(res.json));
    t.clock.advance(1000);
    return res.json.data.id as string;
  };
  const bodies = (res: { json: any }) => res.json.data.map((item: any) => item.attributes.body);

  before(async () => {
    t = await createTestApp();
    const owner = await createUser(t);
    writer = await createUser(t);
    viewer = await createUser(t);
    mediaId = (await createMediaRow(t, owner.id)).id;
    for (const body of [
      { action: 'hide', context: ['comments'], keywords: [{ keyword: 'SPOILER' }] },
      { action: 'warn', context: ['comments'], keywords: [{ keyword: 'rude', wholeWord: false }] },
      { action: 'hide', context: ['feeds', 'notifications'], keywords: [{ keyword: 'lovely' }] },
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/users/me/filters',
        token: viewer.token,
        body: { title: 'Mine', ...body },
      });
      assert.equal(res.statusCode, 201);
    }
  });
  after(() => t.close());

  it('leaves hidden comments out of full pages with exact cursors, and warns on the others', async () => {
    const first = await comment('Lovely light');
    await comment('Spoiler: it rains');
    await comment('Big SPOILER ahead');
    await comment('spoiler!');
    const rude = await comment('Rudely cropped');
    await comment('Nice one');

    const pages: string[][] = [];
    let url: string | null = `/api/media/${mediaId}/comments?limit=2`;
    while (url !== null) {
      const res = await t.request({ method: 'GET', url, token: viewer.token });
      assert.equal(res.statusCode, 200, JSON.stringify(res.json));
      pages.push(bodies(res));
      if (res.json.data.some((item: any) => item.id === rude)) {
        const item = res.json.data.find((entry: any) => entry.id === rude);
        assert.deepEqual(
          item.meta.filtered.map((entry: any) => entry.matches),
          [['rude']],
        );
      }
      url = res.json.links.next;
    }
    assert.deepEqual(pages, [['Lovely light', 'Rudely cropped'], ['Nice one']]);

    const anonymous = await t.request({ method: 'GET', url: `/api/media/${mediaId}/comments?limit=20` });
    assert.equal(anonymous.json.data.length, 6, 'nothing changes for anonymous readers');
    assert.ok(anonymous.json.data.every((item: any) => item.meta === undefined));

    // Replies and the thread follow the same filters.
    await comment('A spoiler in reply', first);
    await comment('A rude reply', first);
    const replies = await t.request({
      method: 'GET',
      url: `/api/media/comments/${first}/replies`,
      token: viewer.token,
    });
    assert.deepEqual(bodies(replies), ['A rude reply']);
    assert.equal(replies.json.data[0].meta.filtered.length, 1);
    const thread = await t.request({ method: 'GET', url: `/api/media/comments/${first}/thread`, token: viewer.token });
    assert.deepEqual(bodies(thread), ['Lovely light', 'A rude reply']);
  });
});
