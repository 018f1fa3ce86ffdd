import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { storedKeys, upload } from '../../../../test/helpers/media-uploads.ts';
import { makePng } from '../../../../test/support/test-images.ts';
import { newId } from '../../../platform/ids/ids.ts';

describe('media administration', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const newPost = async () =>
    (await upload(t, '/api/users/me/media', ada.token, await makePng({ width: 30, height: 30 }))).json.data;

  before(async () => {
    t = await createTestApp();
    ada = await createUser(t);
    bob = await createUser(t);
  });
  after(() => t.close());

  it('refuses user tokens on every media admin route', async () => {
    const hex = '0123456789abcdef0123456789abcdef';
    for (const [method, url] of [
      ['PUT', `/admin/media/${hex}/published`],
      ['PUT', `/admin/media/${hex}/flag`],
      ['POST', `/admin/media/${hex}/recompute-stats`],
      ['DELETE', `/admin/media/${hex}`],
      ['POST', '/admin/jobs/cleanup-orphan-files'],
    ] as const) {
      assert.equal((await t.request({ method, url, token: ada.token })).statusCode, 401, `${method} ${url}`);
    }
  });

  it('unpublishes and flags: the public lists and links follow, the owner still sees them', async () => {
    const post = await newPost();
    const publicIds = async () =>
      (await t.request({ method: 'GET', url: `/api/users/${ada.id}/media?limit=100` })).json.data.map(
        (item: { id: string }) => item.id,
      );
    assert.ok((await publicIds()).includes(post.id));
    const off = await admin('PUT', `/admin/media/${post.attributes.hex}/published`, { published: false });
    assert.equal(off.statusCode, 200);
    assert.equal(off.json.data.attributes.published, false);
    assert.ok(!(await publicIds()).includes(post.id));
    assert.equal(await t.services.areas.media.media.findVisibleMedia(post.id, bob.id), null);
    assert.notEqual(
      await t.services.areas.media.media.findVisibleMedia(post.id, ada.id),
      null,
      'the owner still sees it',
    );
    await admin('PUT', `/admin/media/${post.id}/published`, { published: true });

    const sensitive = await admin('PUT', `/admin/media/${post.id}/flag`, { flag: 1 });
    assert.equal(sensitive.json.data.attributes.flag, 1);
    assert.ok(!(await publicIds()).includes(post.id), 'sensitive media leave public lists');
    assert.notEqual(
      await t.services.areas.media.media.findVisibleMedia(post.attributes.hex, null),
      null,
      'but stay reachable',
    );
    await admin('PUT', `/admin/media/${post.id}/flag`, { flag: 2 });
    assert.equal(await t.services.areas.media.media.findVisibleMedia(post.id, null), null);
    const mine = await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: ada.token });
    assert.equal(mine.json.data.find((item: { id: string }) => item.id === post.id).attributes.flag, 2);

    for (const body of [{ flag: 3 }, { flag: -1 }, { flag: '1' }, {}]) {
      const bad = await admin('PUT', `/admin/media/${post.id}/flag`, body);
      assert.equal(bad.statusCode, 422, JSON.stringify(body));
    }
    assert.equal((await admin('PUT', `/admin/media/${post.id}/published`, { published: 'no' })).statusCode, 422);
    assert.equal(
      (await admin('PUT', '/admin/media/0123456789abcdef0123456789abcdef/flag', { flag: 0 })).statusCode,
      404,
    );
    assert.equal((await admin('PUT', '/admin/media/xyz/flag', { flag: 0 })).statusCode, 422);
  });

  it('recomputes counters from reactions and bookmarks', async () => {
    const post = await newPost();
    const db = t.deps.database.db;
    const now = t.clock.now().toISOString();
    await db.execute(
      sql`INSERT INTO media_reactions (id, user_id, media_id, type, created_at) VALUES (${newId()}, ${bob.id}, ${post.id}, 'like', ${now})`,
    );
    await db.execute(
      sql`INSERT INTO bookmarks (id, user_id, media_id, created_at, updated_at) VALUES (${newId()}, ${bob.id}, ${post.id}, ${now}, ${now})`,
    );
    await db.execute(
      sql`UPDATE media SET likes_count = 7, dislikes_count = 3, bookmarks_count = 0 WHERE id = ${post.id}`,
    );
    const res = await admin('POST', `/admin/media/${post.attributes.hex}/recompute-stats`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json.data.attributes.likesCount, 1);
    assert.equal(res.json.data.attributes.dislikesCount, 0);
    assert.equal(res.json.data.attributes.bookmarksCount, 1);
    assert.equal(res.json.meta.before.likesCount, 7);
    assert.equal(
      (await admin('POST', '/admin/media/0123456789abcdef0123456789abcdef/recompute-stats')).statusCode,
      404,
    );
  });

  it('deletes a media with its files, then 404', async () => {
    const post = await newPost();
    await t.request({ method: 'GET', url: `/media/${post.attributes.hex}.webp?size=thumb` });
    assert.ok((await storedKeys(t.deps.storage)).filter((key) => key.includes(post.attributes.hex)).length >= 2);
    assert.equal((await admin('DELETE', `/admin/media/${post.attributes.hex}`)).statusCode, 204);
    assert.ok(!(await storedKeys(t.deps.storage)).some((key) => key.includes(post.attributes.hex)));
    assert.equal((await admin('DELETE', `/admin/media/${post.attributes.hex}`)).statusCode, 404);
  });

  it('removes files without a row once older than the grace period, and reports them', async () => {
    t.clock.set(new Date());
    const kept = await newPost();
    const orphanHex = newId().replaceAll('-', '');
    const orphanKey = `originals/${orphanHex.slice(0, 2)}/${orphanHex}.png`;
    await t.deps.storage.put(orphanKey, Buffer.from('left behind'), 'image/png');
    await t.deps.storage.put('unrelated/readme.txt', Buffer.from('not ours'), 'text/plain');

    const young = await admin('POST', '/admin/jobs/cleanup-orphan-files', { graceHours: 1 });
    assert.equal(young.statusCode, 200);
    assert.deepEqual(young.json.data.attributes.report.removed, []);
    assert.ok(young.json.data.attributes.report.keptWithinGrace >= 1);
    assert.ok(await t.deps.storage.exists(orphanKey));

    t.clock.advance(2 * 3_600_000);
    const old = await admin('POST', '/admin/jobs/cleanup-orphan-files', { graceHours: 1 });
    assert.deepEqual(old.json.data.attributes.report.removed, [orphanKey]);
    assert.equal(await t.deps.storage.exists(orphanKey), false);
    assert.ok(await t.deps.storage.exists('unrelated/readme.txt'));
    assert.equal(
      (await t.request({ method: 'GET', url: `/media/${kept.attributes.hex}.png` })).statusCode,
      200,
      'files with a row stay',
    );
    assert.equal((await admin('POST', '/admin/jobs/cleanup-orphan-files', { graceHours: -1 })).statusCode, 422);
    const defaults = await admin('POST', '/admin/jobs/cleanup-orphan-files');
    assert.equal(defaults.json.data.attributes.report.graceHours, 24);
  });

  it('audits every admin call with actor, action, target and payload', async () => {
    const entries = await t.services.platform.audit.recent(200);
    const flag = entries.find((entry) => entry.action === 'media.flag');
    assert.ok(flag);
    assert.equal(flag.actor, 'admin');
    assert.equal(flag.targetType, 'media');
    assert.ok(typeof flag.payload.flag === 'number');
    for (const action of ['media.published', 'media.recomputeStats', 'media.delete', 'jobs.cleanupOrphanFiles']) {
      assert.ok(
        entries.some((entry) => entry.action === action),
        action,
      );
    }
  });
});
