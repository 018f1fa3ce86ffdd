/** The notification endpoints, as a client sees them: documents, pages, states and errors. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { dispatchFollow, dispatchLevelUp } from '../../../test/helpers/notification-dispatch.ts';

const base = '/api/users/me/notifications';

describe('notification endpoints', () => {
  let t: TestApp;
  let actor: TestUser;
  before(async () => {
    t = await createTestApp();
    actor = await createUser(t, { nickname: 'Ana' });
  });
  after(() => t.close());

  const follow = (recipient: TestUser) => dispatchFollow(t, recipient, actor, 'Ana');
  const levelUp = (recipient: TestUser, level: number) => dispatchLevelUp(t, recipient, level);
  const get = (user: TestUser, url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, token: user.token, headers });

  it('refuses every notification route without a token', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', base],
      ['GET', `${base}/unread-count`],
      ['PATCH', `${base}/${id}/read`],
      ['POST', `${base}/mark-all-read`],
      ['DELETE', `${base}/${id}`],
      ['GET', `${base}/preferences`],
      ['PATCH', `${base}/preferences`],
    ] as const) {
      const res = await t.request({ method, url });
      assert.equal(res.statusCode, 401, `${method} ${url}`);
    }
  });

  it('lists notifications as JSON:API resources rendered in the negotiated locale', async () => {
    const user = await createUser(t);
    const { id } = await follow(user);
    const res = await get(user, base);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/);
    assert.deepEqual(res.json.data, [
      {
        type: 'notifications',
        id,
        attributes: {
          type: 'follow.received',
          title: 'New follower',
          body: 'Ana started following you.',
          locale: 'en-US',
          data: { actorId: actor.id, actorUsername: actor.username, actorDisplayName: 'Ana' },
          isRead: false,
          readAt: null,
          createdAt: '2026-11-21T12:00:00.000+00:00',
        },
      },
    ]);
    assert.deepEqual(res.json.meta, { limit: 20, unreadOnly: false, total: 1 });
    // Links are absolute under PUBLIC_URL, so a client can follow them as they are.
    const absolute = `${t.deps.config.publicUrl}${base}`;
    assert.deepEqual(res.json.links, { self: absolute, first: absolute, prev: null, next: null });
    const french = await get(user, base, { 'accept-language': 'fr-CA,fr;q=0.9' });
    assert.equal(french.json.data[0].attributes.locale, 'fr-FR');
    assert.equal(french.json.data[0].attributes.title, 'Nouvel abonné');
    assert.equal(french.json.data[0].attributes.body, "Ana s'est abonné à vous.");
  });

  it('walks 250 rows forward and back with no gap and no duplicate, ties on createdAt included', async () => {
    const user = await createUser(t);
    const created: { id: string; at: number }[] = [];
    for (let i = 0; i < 250; i++) {
      if (i % 50 === 0) t.clock.advance(1000); // five groups of 50 rows sharing one createdAt
      const { id } = await levelUp(user, i + 1);
      created.push({ id: id!, at: t.clock.now().getTime() });
    }
    const expected = created.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).map((row) => row.id);
    const forward: string[] = [];
    let url: string | null = `${base}?limit=30`;
    let last: any;
    while (url) {
      last = (await get(user, url)).json;
      assert.equal(last.meta.total, 250);
      forward.push(...last.data.map((row: { id: string }) => row.id));
      url = last.links.next;
    }
    assert.deepEqual(forward, expected);
    const backward: string[] = [];
    url = last.links.prev;
    backward.unshift(...last.data.map((row: { id: string }) => row.id));
    while (url) {
      const page: any = (await get(user, url)).json;
      assert.ok(page.data.length <= 30);
      backward.unshift(...page.data.map((row: { id: string }) => row.id));
      url = page.links.prev;
    }
    assert.deepEqual(backward, expected);
  });

  it('takes limit 1 to 100 and refuses anything else with 400 and the parameter', async () => {
    const user = await createUser(t);
    for (let level = 1; level <= 3; level++) await levelUp(user, level);
    assert.equal((await get(user, `${base}?limit=1`)).json.data.length, 1);
    assert.equal((await get(user, `${base}?limit=100`)).json.meta.limit, 100);
    for (const limit of ['0', '101', '-1', 'abc', '2.5']) {
      const res = await get(user, `${base}?limit=${limit}`);
      assert.equal(res.statusCode, 400, `limit=${limit}`);
      assert.equal(res.json.errors[0].source.parameter, 'limit');
    }
  });

  it('answers 400 for a malformed cursor or before', async () => {
    const user = await createUser(t);
    for (const parameter of ['cursor', 'before']) {
      for (const value of ['nope!', 'bm90LWpzb24', Buffer.from('["x","y"]').toString('base64url')]) {
        const res = await get(user, `${base}?${parameter}=${value}`);
        assert.equal(res.statusCode, 400, `${parameter}=${value}`);
        assert.equal(res.json.errors[0].code, 'invalidCursor');
        assert.equal(res.json.errors[0].source.parameter, parameter);
      }
    }
  });

  it('filter=unread keeps unread rows and counts total with the same filter', async () => {
    const user = await createUser(t);
    const first = await levelUp(user, 1);
    await levelUp(user, 2);
    await levelUp(user, 3);
    await t.request({ method: 'PATCH', url: `${base}/${first.id}/read`, token: user.token });
    const unread = (await get(user, `${base}?filter=unread`)).json;
    assert.deepEqual(unread.meta, { limit: 20, unreadOnly: true, total: 2 });
    assert.ok(unread.data.every((row: any) => row.attributes.isRead === false));
    assert.equal((await get(user, base)).json.meta.total, 3);
    assert.equal((await get(user, `${base}?filter=read`)).statusCode, 400);
  });

  it('counts unread notifications', async () => {
    const user = await createUser(t);
    await levelUp(user, 1);
    await levelUp(user, 2);
    const res = await get(user, `${base}/unread-count`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json.data, { type: 'notificationUnreadCount', id: user.id, attributes: { count: 2 } });
  });

  it('marks one read (200, isRead true) and again without change (idempotent)', async () => {
    const user = await createUser(t);
    const { id } = await follow(user);
    t.clock.advanceMinutes(1);
    const first = await t.request({ method: 'PATCH', url: `${base}/${id}/read`, token: user.token });
    assert.equal(first.statusCode, 200);
    assert.equal(first.json.data.type, 'notifications');
    assert.equal(first.json.data.id, id);
    assert.equal(first.json.data.attributes.isRead, true);
    assert.equal(first.json.data.attributes.readAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    t.clock.advanceMinutes(1);
    const again = await t.request({ method: 'PATCH', url: `${base}/${id}/read`, token: user.token });
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json, first.json);
    assert.equal((await get(user, `${base}/unread-count`)).json.data.attributes.count, 0);
  });

  it("read: 422 for an invalid UUID, 404 for a missing one or another user's, which stays unread", async () => {
    const owner = await createUser(t);
    const intruder = await createUser(t);
    const { id } = await follow(owner);
    for (const bad of ['abc', '123', `${id}x`, id!.replaceAll('-', ''), id!.toUpperCase()]) {
      const res = await t.request({ method: 'PATCH', url: `${base}/${bad}/read`, token: owner.token });
      assert.equal(res.statusCode, 422, bad);
      assert.equal(res.json.errors[0].code, 'invalidId');
      assert.equal(res.json.errors[0].source.parameter, 'id');
    }
    const missing = await t.request({ method: 'PATCH', url: `${base}/${randomUUID()}/read`, token: owner.token });
    assert.equal(missing.statusCode, 404);
    const foreign = await t.request({ method: 'PATCH', url: `${base}/${id}/read`, token: intruder.token });
    assert.equal(foreign.statusCode, 404);
    assert.deepEqual(foreign.json.errors[0].code, missing.json.errors[0].code);
    assert.equal((await get(owner, `${base}/unread-count`)).json.data.attributes.count, 1);
    assert.equal((await get(intruder, base)).json.meta.total, 0);
  });

  it('mark-all-read switches the unread rows and says how many', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const first = await levelUp(user, 1);
    await levelUp(user, 2);
    await levelUp(user, 3);
    await levelUp(other, 1);
    await t.request({ method: 'PATCH', url: `${base}/${first.id}/read`, token: user.token });
    const res = await t.request({ method: 'POST', url: `${base}/mark-all-read`, token: user.token });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json.data, { type: 'notificationBulkRead', id: user.id, attributes: { affected: 2 } });
    const again = await t.request({ method: 'POST', url: `${base}/mark-all-read`, token: user.token });
    assert.equal(again.json.data.attributes.affected, 0);
    assert.equal((await get(user, `${base}/unread-count`)).json.data.attributes.count, 0);
    assert.equal((await get(other, `${base}/unread-count`)).json.data.attributes.count, 1);
  });

  it("deletes one of mine for good (204, empty body); 404 afterwards, for a missing one or another user's; 422 for a bad UUID", async () => {
    const owner = await createUser(t);
    const intruder = await createUser(t);
    const { id } = await follow(owner);
    const foreign = await t.request({ method: 'DELETE', url: `${base}/${id}`, token: intruder.token });
    assert.equal(foreign.statusCode, 404);
    assert.equal((await get(owner, base)).json.meta.total, 1);
    const res = await t.request({ method: 'DELETE', url: `${base}/${id}`, token: owner.token });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal((await get(owner, base)).json.meta.total, 0);
    assert.equal((await t.request({ method: 'DELETE', url: `${base}/${id}`, token: owner.token })).statusCode, 404);
    assert.equal((await t.request({ method: 'PATCH', url: `${base}/${id}/read`, token: owner.token })).statusCode, 404);
    const bad = await t.request({ method: 'DELETE', url: `${base}/not-a-uuid`, token: owner.token });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json.errors[0].source.parameter, 'id');
  });
});
