import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { makePng } from '../../../test/support/test-images.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { cityRows } from '../geography/read-model.ts';
import { searchDocuments } from './tables.ts';

describe('the search index, kept current on writes', () => {
  let t: TestApp;
  let ada: TestUser;
  const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const found = async (q: string) =>
    (await t.request({ method: 'GET', url: `/api/users/search?q=${encodeURIComponent(q)}` })).json.data.map(
      (user: { attributes: { username: string } }) => user.attributes.username,
    );
  const health = async () => {
    const res = await admin('GET', '/admin/search/health');
    assert.equal(res.statusCode, 200);
    return res.json.data.attributes as Record<'users' | 'media', Record<string, number | string | null>>;
  };
  const newPost = async (owner: TestUser) =>
    (await upload(t, '/api/users/me/media', owner.token, await makePng({ width: 20, height: 20 }))).json.data;

  before(async () => {
    t = await createTestApp();
    ada = await createUser(t, { username: 'ada_lovelace', nickname: 'Countess of Lovelace' });
  });
  after(() => t.close());

  it('indexes a user at registration: found at once, the index matching its sources', async () => {
    assert.deepEqual(await found('ada_lovelace'), ['ada_lovelace']);
    const users = (await health()).users;
    assert.equal(users.documents, users.sources);
    assert.deepEqual([users.stale, users.missing, users.orphaned], [0, 0, 0]);
  });

  it('follows a nickname change and a username change', async () => {
    const nick = await t.request({
      method: 'PUT',
      url: '/api/users/me/nickname',
      token: ada.token,
      body: { nickname: 'Enchantress of Numbers' },
    });
    assert.equal(nick.statusCode, 200);
    assert.deepEqual(await found('enchantress'), ['ada_lovelace']);
    assert.deepEqual(await found('countess'), [], 'the old nickname is gone from the index');

    const renamed = await t.request({
      method: 'POST',
      url: '/api/users/me/username/change',
      token: ada.token,
      body: { username: 'augusta_ada' },
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual(await found('augusta'), ['augusta_ada']);
    assert.deepEqual(await found('ada_lovelace'), []);
    assert.equal((await health()).users.stale, 0);
  });

  it('drops a user who stops being discoverable and takes them back', async () => {
    const before = (await health()).users.documents as number;
    const setDiscoverable = (discoverable: boolean) =>
      t.request({ method: 'PATCH', url: '/api/users/me/settings', token: ada.token, body: { discoverable } });
    assert.equal((await setDiscoverable(false)).statusCode, 200);
    assert.deepEqual(await found('augusta'), []);
    assert.equal((await health()).users.documents, before - 1);
    assert.equal((await setDiscoverable(true)).statusCode, 200);
    assert.deepEqual(await found('augusta'), ['augusta_ada']);
    assert.equal((await health()).users.documents, before);
  });

  it('hides a banned user at once; the search-index job removes their documents', async () => {
    const banned = await createUser(t, { username: 'grace_banned', nickname: 'Grace' });
    await newPost(banned);
    const start = await health();
    // No ban route yet: the row is written directly, as a ban will write it.
    await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
    assert.deepEqual(await found('grace_banned'), [], 'the live rule hides them before the document goes');
    const seen = await health();
    assert.equal(seen.users.orphaned, 1);
    assert.equal(seen.media.orphaned, 1, 'their media are no longer public either');

    const flush = await admin('POST', '/admin/jobs/flush/search-index');
    assert.equal(flush.statusCode, 200);
    assert.equal(flush.json.data.attributes.ran, true);
    assert.equal(flush.json.data.attributes.report.users.removed, 1);
    assert.equal(flush.json.data.attributes.report.media.removed, 1);
    const after = await health();
    assert.equal(after.users.documents, (start.users.documents as number) - 1);
    assert.equal(after.media.documents, (start.media.documents as number) - 1);
    assert.deepEqual([after.users.orphaned, after.media.orphaned], [0, 0]);
  });

  it('keeps the words a typo is looked for from in step with the user documents, through every change above', async () => {
    // search_user_words (migrations/1970_search_user_words.sql): each user document's words, nothing else.
    const [drift] = await queryRows<{ missing: number; extra: number }>(
      t.deps.database.db,
      sql`WITH lexemes AS (
            SELECT DISTINCT word, source_id FROM search_documents, unnest(tsvector_to_array(document)) AS word
            WHERE kind = 'user'),
          words AS (SELECT word::text, source_id FROM search_user_words)
          SELECT (SELECT count(*)::int FROM (SELECT * FROM lexemes EXCEPT SELECT * FROM words) AS m) AS missing,
                 (SELECT count(*)::int FROM (SELECT * FROM words EXCEPT SELECT * FROM lexemes) AS e) AS extra`,
    );
    assert.deepEqual(drift, { missing: 0, extra: 0 });
    assert.deepEqual(await found('enchantrese'), ['augusta_ada'], 'a typo of the new nickname');
    assert.deepEqual(await found('countesss'), [], 'the old nickname left no word behind');
  });

  it('indexes a post when published and its description when the describe queue sets it', async () => {
    const before = (await health()).media.documents as number;
    const post = await newPost(ada);
    assert.equal((await health()).media.documents, before + 1);

    assert.equal((await admin('POST', `/admin/media/${post.attributes.hex}/claim`)).statusCode, 200);
    const described = await admin('POST', '/admin/media/describe', {
      mediaId: post.id,
      description: 'Sunrise over the Reykjavík harbour',
      hashtags: ['iceland'],
    });
    assert.equal(described.statusCode, 200, described.body);
    const state = await health();
    assert.deepEqual([state.media.stale, state.media.missing], [0, 0]);
    const reindex = await admin('POST', `/admin/media/${post.attributes.hex}/reindex`);
    assert.equal(reindex.statusCode, 200);
    assert.deepEqual(reindex.json.data.attributes, {
      kind: 'media',
      hex: post.attributes.hex,
      indexed: true,
      changed: false,
    });

    // A write behind the services' back is what a reindex does catch.
    await updateMediaRow(t, post.id, { description: 'Something else entirely' });
    assert.equal((await admin('POST', `/admin/media/${post.id}/reindex`)).json.data.attributes.changed, true);
  });

  it('indexes what a post says and where it is: description, hashtags, city and country names, unaccented', async () => {
    const db = t.deps.database.db;
    const [city] = await db
      .select()
      .from(cityRows)
      .where(and(eq(cityRows.name, 'São Paulo'), eq(cityRows.countryCode, 'BR')))
      .limit(1);
    assert.ok(city, 'the reference cities are loaded');
    const post = await createMediaRow(t, ada.id, {
      description: 'Café da manhã',
      hashtags: ['brasil'],
      cityId: city.id,
      countryCode: 'BR',
    });
    assert.equal((await admin('POST', `/admin/media/${post.id}/reindex`)).json.data.attributes.changed, true);
    const [document] = await db
      .select({ body: searchDocuments.body })
      .from(searchDocuments)
      .where(eq(searchDocuments.sourceId, post.id));
    for (const word of ['cafe da manha', 'brasil', 'br', 'sao paulo', 'brazil', 'bresil']) {
      assert.ok(document?.body.includes(word), `${word} in ${document?.body}`);
    }
  });

  it("follows the owner's own description and its removal", async () => {
    const post = await newPost(ada);
    const own = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${post.id}/description`,
      token: ada.token,
      body: { description: 'Lunch in São Paulo #food' },
    });
    assert.equal(own.statusCode, 200);
    const reindex = () => admin('POST', `/admin/media/${post.id}/reindex`);
    assert.equal((await reindex()).json.data.attributes.changed, false, 'already indexed by the write');
    const cleared = await t.request({
      method: 'DELETE',
      url: `/api/users/me/media/${post.id}/description`,
      token: ada.token,
    });
    assert.equal(cleared.statusCode, 204);
    assert.equal((await reindex()).json.data.attributes.changed, false);
  });

  it('removes a post deleted, unpublished or hidden, and takes it back when published again', async () => {
    const count = async () => (await health()).media.documents as number;
    const start = await count();
    const [deleted, unpublished, hidden, removedByAdmin] = [
      await newPost(ada),
      await newPost(ada),
      await newPost(ada),
      await newPost(ada),
    ];
    assert.equal(await count(), start + 4);

    const del = await t.request({ method: 'DELETE', url: `/api/users/me/media/${deleted.id}`, token: ada.token });
    assert.equal(del.statusCode, 204);
    assert.equal(await count(), start + 3);
    assert.equal((await admin('DELETE', `/admin/media/${removedByAdmin.attributes.hex}`)).statusCode, 204);
    assert.equal(await count(), start + 2);

    assert.equal(
      (await admin('PUT', `/admin/media/${unpublished.id}/published`, { published: false })).statusCode,
      200,
    );
    assert.equal((await admin('PUT', `/admin/media/${hidden.id}/flag`, { flag: 2 })).statusCode, 200);
    assert.equal(await count(), start);
    assert.equal((await admin('POST', `/admin/media/${hidden.id}/reindex`)).json.data.attributes.indexed, false);

    await admin('PUT', `/admin/media/${unpublished.id}/published`, { published: true });
    assert.equal(await count(), start + 1);
    const final = (await health()).media;
    assert.deepEqual([final.stale, final.missing, final.orphaned], [0, 0, 0]);
  });
});
