/**
 * Two instances of the service on one database: a share link revoked on one stops opening on the
 * other at once, and so does a link whose post a moderator hid there (nothing of a link is cached;
 * on PostgreSQL each instance has its own pool, on PGlite they share the one database).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openAnotherInstance, openTestDatabase } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('share links across instances', () => {
  let one: TestApp;
  let two: TestApp;
  let databases: Array<{ close(): Promise<void> }>;
  before(async () => {
    const database = await openTestDatabase();
    const second = await openAnotherInstance(database);
    databases = [second, database];
    one = await createTestApp({ database });
    two = await createTestApp({ database: second.database, clock: one.clock });
  });
  after(async () => {
    for (const t of [two, one]) await t.close();
    for (const database of databases) await database.close();
  });

  const open = async (t: TestApp, token: string) =>
    (await t.request({ method: 'GET', url: `/s/${token}`, headers: { accept: 'text/html' } })).statusCode;

  it('ends a revoked link and a hidden post’s link on the other instance at once', async () => {
    const ana = await createUser(one);
    const [kept, revoked] = [await createMediaRow(one, ana.id), await createMediaRow(one, ana.id)];
    const links = [];
    for (const post of [kept, revoked]) {
      const res = await one.request({
        method: 'POST',
        url: '/api/users/me/share-links',
        token: ana.token,
        body: { targetKind: 'post', targetId: post.id },
      });
      assert.equal(res.statusCode, 201, JSON.stringify(res.json));
      links.push(res.json.data);
    }
    const [keptLink, revokedLink] = links;
    assert.equal(await open(two, keptLink.attributes.token), 200);
    assert.equal(await open(two, revokedLink.attributes.token), 200);

    const revoke = await one.request({
      method: 'DELETE',
      url: `/api/users/me/share-links/${revokedLink.id}`,
      token: ana.token,
    });
    assert.equal(revoke.statusCode, 204);
    assert.equal(await open(two, revokedLink.attributes.token), 404, 'revoked on one, gone on two at once');

    const hide = await one.request({
      method: 'PUT',
      url: `/admin/media/${kept.id.replaceAll('-', '')}/flag`,
      token: adminToken,
      body: { flag: 2 },
    });
    assert.equal(hide.statusCode, 200, JSON.stringify(hide.json));
    assert.equal(await open(two, keptLink.attributes.token), 404, 'hidden on one, closed on two at once');
  });
});
