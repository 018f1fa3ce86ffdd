import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, insertUserRow, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('search index administration', () => {
  let t: TestApp;
  let ada: TestUser;
  const admin = (method: 'GET' | 'POST', url: string) => t.request({ method, url, token: adminToken });
  const health = async () => {
    const res = await admin('GET', '/admin/search/health');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json.data.type, 'searchHealth');
    return res.json.data.attributes;
  };
  const auditActions = async () => (await t.services.platform.audit.recent(200)).map((entry) => entry.action);

  before(async () => {
    t = await createTestApp();
    ada = await createUser(t, { username: 'ada_admin' });
  });
  after(() => t.close());

  it('refuses a missing token and a user token on every route', async () => {
    const hex = '0123456789abcdef0123456789abcdef';
    for (const [method, url] of [
      ['POST', `/admin/media/${hex}/reindex`],
      ['POST', '/admin/media/reindex-all'],
      ['POST', `/admin/users/${hex}/reindex`],
      ['POST', '/admin/users/reindex-all'],
      ['GET', '/admin/search/health'],
    ] as const) {
      assert.equal((await t.request({ method, url })).statusCode, 401, `${method} ${url}`);
      assert.equal((await t.request({ method, url, token: ada.token })).statusCode, 401, `${method} ${url}`);
    }
  });

  it('reindexes one user or media by hex or UUID: 404 when unknown, 422 for a bad id', async () => {
    const user = await admin('POST', `/admin/users/${ada.hex}/reindex`);
    assert.equal(user.statusCode, 200);
    assert.deepEqual(user.json.data, {
      type: 'searchDocuments',
      id: ada.id,
      attributes: { kind: 'user', hex: ada.hex, indexed: true, changed: false },
    });
    assert.equal((await admin('POST', `/admin/users/${ada.id}/reindex`)).statusCode, 200);

    // A row written behind the services' back has no document until a reindex.
    const post = await createMediaRow(t, ada.id, { description: 'Old harbour', hashtags: ['harbour'] });
    const first = await admin('POST', `/admin/media/${post.id.replaceAll('-', '')}/reindex`);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json.data.attributes, {
      kind: 'media',
      hex: post.id.replaceAll('-', ''),
      indexed: true,
      changed: true,
    });
    assert.equal((await admin('POST', `/admin/media/${post.id}/reindex`)).json.data.attributes.changed, false);

    const unknown = await admin('POST', '/admin/media/0123456789abcdef0123456789abcdef/reindex');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json.errors[0].source.parameter, 'hex');
    assert.equal((await admin('POST', '/admin/users/0123456789abcdef0123456789abcdef/reindex')).statusCode, 404);
    const bad = await admin('POST', '/admin/users/not-an-id/reindex');
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json.errors[0].code, 'invalidId');

    const actions = await auditActions();
    assert.ok(actions.includes('search.reindex.user') && actions.includes('search.reindex.media'));
  });

  it('reports drift in the health, and the search-index job through the flush route repairs it', async () => {
    const stale = await createUser(t, { username: 'stale_user' });
    const banned = await createUser(t, { username: 'banned_user' });
    // Changes no event announces: rows written directly, behind the services' back.
    const missing = await insertUserRow(t, { email: 'written-directly@example.test', username: 'operator_made' });
    await updateUserRow(t, stale.id, { updatedAt: new Date(t.clock.now().getTime() + 60_000) });
    await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
    await createMediaRow(t, ada.id, { hashtags: ['lighthouse'] });

    const before = await health();
    assert.equal(before.users.stale, 1);
    assert.equal(before.users.missing, 1);
    assert.equal(before.users.orphaned, 1);
    assert.equal(before.media.missing, 1);
    assert.equal(before.users.lastRepairAt, null);

    const flush = await admin('POST', '/admin/jobs/flush/search-index');
    assert.equal(flush.statusCode, 200);
    assert.deepEqual(flush.json.data.attributes.report.users, { kind: 'user', indexed: 2, removed: 1 });
    assert.deepEqual(flush.json.data.attributes.report.media, { kind: 'media', indexed: 1, removed: 0 });

    const after = await health();
    for (const kind of ['users', 'media'] as const) {
      assert.deepEqual([after[kind].stale, after[kind].missing, after[kind].orphaned], [0, 0, 0], kind);
      assert.equal(after[kind].documents, after[kind].sources, kind);
      assert.equal(after[kind].lastRepairAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    }
    const found = await t.request({ method: 'GET', url: '/api/users/search?q=operator_made' });
    assert.deepEqual(
      found.json.data.map((user: { id: string }) => user.id),
      [missing.id],
    );
    const again = await admin('POST', '/admin/jobs/flush/search-index');
    assert.deepEqual(again.json.data.attributes.report.users, { kind: 'user', indexed: 0, removed: 0 });
  });

  it('rebuilds a kind with counts, twice at once without harm, and records the rebuild', async () => {
    await updateUserRow(t, ada.id, { settings: { discoverable: false } });
    const before = await health();
    assert.equal(before.users.lastRebuildAt, null);
    assert.equal(before.users.orphaned, 1, 'ada is no longer discoverable');

    const [first, second] = await Promise.all([
      admin('POST', '/admin/users/reindex-all'),
      admin('POST', '/admin/users/reindex-all'),
    ]);
    for (const res of [first, second]) {
      assert.equal(res.statusCode, 200);
      assert.equal(res.json.data.type, 'searchRebuilds');
      assert.equal(
        res.json.data.attributes.scanned,
        before.users.sources + 2,
        'every user row: ada and the banned one too',
      );
      assert.equal(res.json.data.attributes.indexed, before.users.sources);
      assert.equal(res.json.data.attributes.batches, 1);
    }
    assert.equal(
      first.json.data.attributes.removed + second.json.data.attributes.removed,
      1,
      "ada's document is removed once, by one of the runs",
    );
    const media = await admin('POST', '/admin/media/reindex-all');
    assert.equal(media.statusCode, 200);
    assert.equal(media.json.data.attributes.indexed, before.media.sources);
    assert.equal(media.json.data.attributes.removed, 0);

    const after = await health();
    assert.equal(after.users.documents, before.users.sources);
    assert.deepEqual([after.users.stale, after.users.missing, after.users.orphaned], [0, 0, 0]);
    assert.equal(after.users.lastRebuildAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    assert.notEqual(after.media.lastRebuildAt, null);
    const actions = await auditActions();
    assert.equal(actions.filter((action) => action === 'search.reindexAll.user').length, 2);
    assert.ok(actions.includes('search.reindexAll.media') && actions.includes('search.health'));
  });
});
