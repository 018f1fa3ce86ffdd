import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, updateUserRow } from '../../../test/helpers/factories.ts';

describe('GET /api/users/search', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await createUser(t, { username: 'marco_polo', nickname: 'Marco Polo' });
    await createUser(t, { username: 'marcopolis', nickname: 'The Wanderer' });
    await createUser(t, { username: 'marc', nickname: 'Marc Levy' });
    await createUser(t, { username: 'ibn_battuta', nickname: 'Ibn Battuta' });
    await createUser(t, { username: 'zoe_travels', nickname: 'Zoé Marcotte' });
    const hidden = await createUser(t, { username: 'marco_hidden', nickname: 'Hidden Marco' });
    await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: hidden.token,
      body: { discoverable: false },
    });
    const banned = await createUser(t, { username: 'marco_banned' });
    await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
    const gone = await createUser(t, { username: 'marco_gone' });
    await updateUserRow(t, gone.id, { anonymizedAt: t.clock.now() });
  });
  after(() => t.close());

  const search = (query: string) => t.request({ method: 'GET', url: `/api/users/search?${query}` });
  const usernames = (res: { json: any }) => res.json.data.map((u: any) => u.attributes.username);

  it('finds users by username or nickname prefix, the exact username first, without a token', async () => {
    const res = await search('q=marc');
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^application\/vnd\.api\+json/);
    const found = usernames(res);
    assert.equal(found[0], 'marc', 'the exact username ranks first');
    assert.ok(found.includes('marco_polo') && found.includes('marcopolis'));
    assert.ok(found.includes('zoe_travels'), 'a nickname word matches (Zoé Marcotte)');
    assert.ok(!found.includes('ibn_battuta'));
    assert.equal(res.json.data[0].type, 'users');
    assert.equal(res.json.data[0].attributes.email, undefined, 'public resources only');
    assert.equal(res.json.meta.q, 'marc');
  });

  it('skips users who are not discoverable, banned or anonymized', async () => {
    const found = usernames(await search('q=marco'));
    for (const name of ['marco_hidden', 'marco_banned', 'marco_gone']) assert.ok(!found.includes(name), name);
    assert.ok(found.includes('marco_polo'));
  });

  it('matches fuzzily and by nickname, case-insensitively', async () => {
    assert.deepEqual(usernames(await search('q=battuda')), ['ibn_battuta'], 'a typo still finds the user');
    assert.deepEqual(usernames(await search('q=WANDERER')), ['marcopolis']);
    assert.deepEqual(usernames(await search('q=nobody-like-this')), []);
  });

  it('treats LIKE wildcards literally', async () => {
    const found = usernames(await search('q=%25'));
    assert.deepEqual(found, []);
    assert.deepEqual(usernames(await search('q=ibn_')), ['ibn_battuta']);
  });

  it('pages on (score, id) without repeats or gaps', async () => {
    const all = usernames(await search('q=marc&limit=50'));
    const seen: string[] = [];
    let url: string | null = '/api/users/search?q=marc&limit=2';
    let pages = 0;
    while (url !== null) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200);
      assert.ok(res.json.data.length <= 2);
      seen.push(...usernames(res));
      url = res.json.links.next;
      pages += 1;
    }
    assert.deepEqual(seen, all);
    assert.ok(pages >= 2);
    const second = await search(
      `q=marc&limit=2&cursor=${(await search('q=marc&limit=2')).json.links.next.split('cursor=')[1]}`,
    );
    const back = await t.request({ method: 'GET', url: second.json.links.prev });
    assert.deepEqual(usernames(back), all.slice(0, 2));
  });

  it('answers 400 when q is missing, blank or longer than 50 characters, or the cursor is bad', async () => {
    for (const query of ['', 'q=', 'q=%20%20', `q=${'a'.repeat(51)}`, 'q=marc&limit=0', 'q=marc&limit=51']) {
      const res = await search(query);
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json.errors[0].code, 'invalidQueryParameter');
      assert.ok(['q', 'limit'].includes(res.json.errors[0].source.parameter), JSON.stringify(res.json.errors));
    }
    const badCursor = await search('q=marc&cursor=WyJ4Il0');
    assert.equal(badCursor.statusCode, 400);
    assert.equal(badCursor.json.errors[0].code, 'invalidCursor');
  });
});
