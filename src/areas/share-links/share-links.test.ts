/**
 * Share links, as their owner and their visitors see them: created for one's own post or collection,
 * listed with their views, opened without an account at /s/{token} (with a password when set), and
 * no longer opening after expiry, revocation, or when the target or its owner is hidden.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';

const hexOf = (id: string) => id.replaceAll('-', '');

describe('share links', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const create = (user: TestUser, body: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/users/me/share-links', token: user.token, body });
  const share = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await create(user, body);
    assert.equal(res.statusCode, 201, JSON.stringify(res.json));
    return res.json.data as { id: string; attributes: { token: string; url: string; views: number } };
  };
  const list = async (user: TestUser, query = '') => {
    const res = await t.request({ method: 'GET', url: `/api/users/me/share-links${query}`, token: user.token });
    assert.equal(res.statusCode, 200, JSON.stringify(res.json));
    return res.json;
  };
  const open = (token: string, viewer?: TestUser) =>
    t.request({ method: 'GET', url: `/s/${token}`, token: viewer?.token, headers: { accept: 'text/html' } });
  const submit = (token: string, password: string) =>
    t.request({
      method: 'POST',
      url: `/s/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({ password }).toString(),
    });

  it('opens a post for a visitor without an account, shows the post alone, and counts the views', async () => {
    const ana = await createUser(t);
    const post = await createMediaRow(t, ana.id, { description: 'Dawn over the <harbour> & the boats' });
    const other = await createMediaRow(t, ana.id, { description: 'Another of Ana’s photos' });
    const link = await share(ana, { targetKind: 'post', targetId: hexOf(post.id) });
    assert.match(link.attributes.token, /^tmsl_[A-Za-z0-9_-]{43}$/);
    assert.equal(link.attributes.url, `${t.app.publicUrl}/s/${link.attributes.token}`);

    const page = await open(link.attributes.token);
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /<meta name="robots" content="noindex"/);
    assert.ok(page.body.includes(`/media/${hexOf(post.id)}.webp?size=large`), 'the photo is shown');
    assert.ok(page.body.includes('Dawn over the &lt;harbour> &amp; the boats'), 'its description, escaped');
    assert.ok(!page.body.includes(hexOf(other.id)), 'nothing else of the owner');
    assert.ok(!page.body.includes(`/@${ana.username}`), 'no link to the owner’s profile');
    await open(link.attributes.token);

    const links = await list(ana);
    assert.equal(links.data.length, 1);
    assert.equal(links.data[0].attributes.views, 2);
    assert.equal(links.data[0].attributes.token, undefined, 'the token is not kept');
    assert.equal(links.data[0].attributes.hasPassword, false);
  });

  it('opens a post of several photos: each in order with its own text and date, the caption once, a hidden one left out', async () => {
    const ana = await createUser(t);
    const taken = [
      '2026-05-01T09:00:00.000Z',
      '2026-05-02T09:00:00.000Z',
      '2026-05-03T09:00:00.000Z',
      '2026-05-04T09:00:00.000Z',
    ];
    const rows = [];
    for (const at of taken) rows.push(await createMediaRow(t, ana.id, { description: null, takenAt: new Date(at) }));
    const [first, second, third, hiddenLater] = rows.map((row) => row.id) as [string, string, string, string];
    const made = await t.request({
      method: 'POST',
      url: '/api/users/me/posts',
      token: ana.token,
      body: {
        caption: 'Three days in Lyon',
        photos: [
          { mediaId: third, description: 'Bouchon lunch' },
          { mediaId: first, description: 'The old town from Fourvière' },
          { mediaId: hiddenLater, description: 'Removed by a moderator' },
          { mediaId: second, description: 'Night on the Saône' },
        ],
      },
    });
    assert.equal(made.statusCode, 201, JSON.stringify(made.json));
    await updateMediaRow(t, hiddenLater, { flag: 2 });
    // Made with a member photo's id: the link opens the post it belongs to, as GET /api/posts/{id} does.
    for (const targetId of [third, hexOf(second)]) {
      const link = await share(ana, { targetKind: 'post', targetId });
      const page = await open(link.attributes.token);
      assert.equal(page.statusCode, 200);
      const shown = [...page.body.matchAll(/<img\s+src="[^"]*\/media\/([0-9a-f]{32})\.webp/g)].map((match) => match[1]);
      assert.deepEqual(shown, [third, first, second].map(hexOf), 'every photo anyone may see, in the post’s order');
      assert.ok(!page.body.includes(hexOf(hiddenLater)) && !page.body.includes('Removed by a moderator'));
      assert.equal(page.body.split('Three days in Lyon').length - 1, 1, 'the caption once');
      for (const text of ['Bouchon lunch', 'The old town from Fourvière', 'Night on the Saône'])
        assert.ok(page.body.includes(`alt="${text}"`) && page.body.includes(`${text} · `), text);
      for (const date of ['May 3, 2026', 'May 1, 2026', 'May 2, 2026']) assert.ok(page.body.includes(date), date);
    }
  });

  it('asks for the password first, refuses a wrong one, and opens with the right one', async () => {
    const ana = await createUser(t);
    const post = await createMediaRow(t, ana.id);
    const link = await share(ana, { targetKind: 'post', targetId: post.id, password: 'open sesame' });
    const { token } = link.attributes;

    const form = await open(token);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /<input id="share-password" name="password" type="password"/);
    assert.ok(!form.body.includes(hexOf(post.id)), 'nothing of the target before the password');
    const wrong = await submit(token, 'open sesam');
    assert.equal(wrong.statusCode, 403);
    assert.match(wrong.body, /role="alert"/);
    assert.ok(!wrong.body.includes(hexOf(post.id)));
    const right = await submit(token, 'open sesame');
    assert.equal(right.statusCode, 200);
    assert.ok(right.body.includes(`/media/${hexOf(post.id)}.webp?size=large`));
    assert.equal((await list(ana)).data[0].attributes.views, 1, 'only the opening counts');
    assert.equal((await list(ana)).data[0].attributes.hasPassword, true);
  });

  it('refuses an expiry in the past, a 10,000-character password, an unknown kind and a target not mine, creating nothing', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const post = await createMediaRow(t, ana.id);
    const bobs = await createMediaRow(t, bob.id);
    const past = new Date(t.clock.now().getTime() - 1000).toISOString();
    const refusals = [
      [{ targetKind: 'post', targetId: post.id, expiresAt: past }, 422, 'expiryInPast'],
      [{ targetKind: 'post', targetId: post.id, password: 'x'.repeat(10_000) }, 422, 'validationFailed'],
      [{ targetKind: 'post', targetId: post.id, password: 'abc' }, 422, 'validationFailed'],
      [{ targetKind: 'trip', targetId: post.id }, 422, 'validationFailed'],
      [{ targetKind: 'post', targetId: bobs.id }, 404, 'notFound'],
      [{ targetKind: 'post', targetId: 'not-an-id' }, 404, 'notFound'],
      [{ targetKind: 'collection', targetId: post.id }, 404, 'notFound'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const res = await create(ana, body);
      assert.equal(res.statusCode, status, JSON.stringify(body).slice(0, 80));
      assert.equal(res.json.errors[0].code, code);
    }
    assert.equal((await list(ana)).data.length, 0, 'nothing created');
    const anonymous = await t.request({
      method: 'POST',
      url: '/api/users/me/share-links',
      body: { targetKind: 'post', targetId: post.id },
    });
    assert.equal(anonymous.statusCode, 401);
  });

  it('stops opening once expired, once revoked, and a revoked link is gone for its owner too', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const post = await createMediaRow(t, ana.id);
    const inAnHour = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const expiring = await share(ana, { targetKind: 'post', targetId: post.id, expiresAt: inAnHour });
    const revoked = await share(ana, { targetKind: 'post', targetId: post.id, password: 'open sesame' });
    assert.equal((await open(expiring.attributes.token)).statusCode, 200);

    const foreign = await t.request({
      method: 'DELETE',
      url: `/api/users/me/share-links/${revoked.id}`,
      token: bob.token,
    });
    assert.equal(foreign.statusCode, 404, 'another user cannot revoke it');
    const revoke = await t.request({
      method: 'DELETE',
      url: `/api/users/me/share-links/${revoked.id}`,
      token: ana.token,
    });
    assert.equal(revoke.statusCode, 204);
    assert.equal((await open(revoked.attributes.token)).statusCode, 404);
    assert.equal((await submit(revoked.attributes.token, 'open sesame')).statusCode, 404);
    const again = await t.request({
      method: 'DELETE',
      url: `/api/users/me/share-links/${revoked.id}`,
      token: ana.token,
    });
    assert.equal(again.statusCode, 404);

    t.clock.advance(3_600_000);
    const expired = await open(expiring.attributes.token);
    assert.equal(expired.statusCode, 404);
    assert.equal((await open('tmsl_nothing-of-the-kind')).statusCode, 404);
    assert.deepEqual(
      (await list(ana)).data.map((item: { id: string }) => item.id),
      [expiring.id],
      'the expired link stays listed (with its expiry), the revoked one is gone',
    );
  });

  it('stops opening when the post is hidden, unpublished or deleted, its owner banned, or for a viewer the owner blocked', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const post = await createMediaRow(t, ana.id);
    const { token } = (await share(ana, { targetKind: 'post', targetId: post.id })).attributes;

    await updateMediaRow(t, post.id, { flag: 2 });
    assert.equal((await open(token)).statusCode, 404);
    await updateMediaRow(t, post.id, { flag: 0, published: false });
    assert.equal((await open(token)).statusCode, 404);
    await updateMediaRow(t, post.id, { published: true });
    assert.equal((await open(token)).statusCode, 200);

    const block = await t.request({ method: 'PUT', url: `/api/users/me/blocks/${bob.id}`, token: ana.token });
    assert.ok(block.statusCode < 300, JSON.stringify(block.json));
    assert.equal((await open(token, bob)).statusCode, 404, 'the owner blocked this viewer');
    assert.equal((await open(token)).statusCode, 200, 'a visitor without an account still opens it');

    const other = await createMediaRow(t, ana.id);
    const otherToken = (await share(ana, { targetKind: 'post', targetId: other.id })).attributes.token;
    const deleted = await t.request({ method: 'DELETE', url: `/api/users/me/media/${other.id}`, token: ana.token });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await open(otherToken)).statusCode, 404, 'a deleted post no longer opens');

    await updateMediaRow(t, post.id, { ownerBanned: true });
    await updateUserRow(t, ana.id, { bannedAt: t.clock.now() });
    assert.equal((await open(token)).statusCode, 404);
  });

  it('opens a bookmark collection with its public photos only', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const shown = await createMediaRow(t, bob.id, { description: 'Shown in the collection' });
    const hidden = await createMediaRow(t, bob.id);
    const outside = await createMediaRow(t, bob.id);
    const collection = await t.request({
      method: 'POST',
      url: '/api/users/me/bookmarks/collections',
      token: ana.token,
      body: { name: 'Harbours <3' },
    });
    assert.equal(collection.statusCode, 201, JSON.stringify(collection.json));
    const collectionId = collection.json.data.id;
    for (const item of [shown, hidden]) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/users/me/media/${item.id}/bookmark`,
        token: ana.token,
        body: { collectionId },
      });
      assert.ok(res.statusCode < 300, JSON.stringify(res.json));
    }
    await t.request({ method: 'PUT', url: `/api/users/me/media/${outside.id}/bookmark`, token: ana.token, body: {} });
    await updateMediaRow(t, hidden.id, { flag: 2 });

    const notMine = await create(bob, { targetKind: 'collection', targetId: collectionId });
    assert.equal(notMine.statusCode, 404);
    const { token } = (await share(ana, { targetKind: 'collection', targetId: collectionId })).attributes;
    const page = await open(token);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Harbours &lt;3<\/h1>/);
    assert.ok(page.body.includes(hexOf(shown.id)));
    assert.ok(!page.body.includes(hexOf(hidden.id)), 'a photo hidden by a moderator is left out');
    assert.ok(!page.body.includes(hexOf(outside.id)), 'a bookmark outside the collection is left out');

    const removed = await t.request({
      method: 'DELETE',
      url: `/api/users/me/bookmarks/collections/${collectionId}`,
      token: ana.token,
    });
    assert.equal(removed.statusCode, 204);
    assert.equal((await open(token)).statusCode, 404, 'a deleted collection no longer opens');
  });

  it('lists my links newest first in keyset pages', async () => {
    const ana = await createUser(t);
    const post = await createMediaRow(t, ana.id);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.unshift((await share(ana, { targetKind: 'post', targetId: post.id })).id);
      t.clock.advance(1000);
    }
    const first = await list(ana, '?limit=2');
    assert.deepEqual(
      first.data.map((item: { id: string }) => item.id),
      ids.slice(0, 2),
    );
    const next = new URL(first.links.next, 'http://x');
    const second = await list(ana, next.search);
    assert.deepEqual(
      second.data.map((item: { id: string }) => item.id),
      ids.slice(2),
    );
  });
});

describe('share link passwords under rate limits (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('allows 20 password tries per 15 minutes from one address, then refuses even the right one', async () => {
    const ana = await createUser(t);
    const post = await createMediaRow(t, ana.id);
    const created = await t.request({
      method: 'POST',
      url: '/api/users/me/share-links',
      token: ana.token,
      body: { targetKind: 'post', targetId: post.id, password: 'open sesame' },
    });
    assert.equal(created.statusCode, 201);
    const submit = (password: string) =>
      t.request({
        method: 'POST',
        url: `/s/${created.json.data.attributes.token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ password }).toString(),
      });
    for (let i = 0; i < 20; i++) assert.equal((await submit(`guess ${i}`)).statusCode, 403);
    const refused = await submit('open sesame');
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    t.clock.advance(15 * 60_000);
    assert.equal((await submit('open sesame')).statusCode, 200, 'the window over, the right password opens it');
  });
});
