/**
 * POST /admin/cache/purge: empties the named in-process caches (all by default) and says what it
 * emptied; an unknown scope is 422 listing the valid ones. A purge reaches the other instances through
 * the broadcast (Redis with REDIS_URL, else PostgreSQL NOTIFY, else in-process on PGlite).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openAnotherInstance, openTestDatabase } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { instanceBroadcast } from '../../../test/helpers/instance-broadcast.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { LocalBroadcast } from '../../adapters/broadcast/index.ts';

const purge = (t: TestApp, body?: unknown, token = adminToken) => {
  t.clock.advance(1); // a millisecond apart, so the audit log lists the purges in order
  return t.request({ method: 'POST', url: '/admin/cache/purge', token, ...(body !== undefined ? { body } : {}) });
};
const usersTotal = async (t: TestApp) =>
  (await t.request({ method: 'GET', url: '/admin/stats', token: adminToken })).json.data.attributes.counts.users.total;

const allCaches = [
  'accounts.sessions',
  'discovery.trending',
  'federation.domainBlocks',
  'filters.ofViewer',
  'hashtags.trending',
  'media.servable',
  'media.variants',
  'stats',
  'syndication.feeds',
  'web.placeCounts',
];

describe('POST /admin/cache/purge', () => {
  let t: TestApp;
  let userToken: string;
  before(async () => {
    t = await createTestApp();
    userToken = (await createUser(t)).token;
  });
  after(() => t.close());

  it('with no scope, empties every cache and lists each with the entries it held', async () => {
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: userToken })).statusCode, 200);
    assert.equal(await usersTotal(t), 1);
    const res = await purge(t);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json.data.type, 'cachePurges');
    assert.equal(res.json.data.attributes.scope, null);
    const purged = res.json.data.attributes.purged as Array<{ name: string; entries: number }>;
    assert.deepEqual(
      purged.map((cache) => cache.name),
      allCaches,
    );
    assert.equal(purged.find((cache) => cache.name === 'accounts.sessions')!.entries, 1);
    assert.equal(purged.find((cache) => cache.name === 'stats')!.entries, 1);
    const again = await purge(t, {});
    assert.ok(again.json.data.attributes.purged.every((cache: { entries: number }) => cache.entries === 0));
  });

  it('with a scope, empties that cache only, or every cache of an area', async () => {
    await createUser(t);
    assert.equal(await usersTotal(t), 2);
    await createUser(t);
    assert.equal(await usersTotal(t), 2, 'the snapshot is kept');
    const res = await purge(t, { scope: 'stats' });
    assert.deepEqual(res.json.data.attributes, { scope: 'stats', purged: [{ name: 'stats', entries: 1 }] });
    assert.equal(await usersTotal(t), 3, 'computed anew');
    const media = await purge(t, { scope: 'media' });
    assert.deepEqual(
      media.json.data.attributes.purged.map((cache: { name: string }) => cache.name),
      ['media.servable', 'media.variants'],
    );
    const audit = await t.request({ method: 'GET', url: '/admin/audit?action=cache.purge', token: adminToken });
    assert.deepEqual(
      audit.json.data.map((entry: any) => entry.attributes.target),
      [
        { type: 'cache', id: 'media' },
        { type: 'cache', id: 'stats' },
        { type: 'cache', id: null },
        { type: 'cache', id: null },
      ],
    );
  });

  it('refuses an unknown scope with 422 listing the valid ones, and wrong types, purging nothing', async () => {
    assert.equal(await usersTotal(t), 3);
    await createUser(t);
    const unknown = await purge(t, { scope: 'everything' });
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.json.errors[0].code, 'validationFailed');
    assert.equal(unknown.json.errors[0].source.pointer, '/scope');
    assert.deepEqual(unknown.json.errors[0].meta.validScopes, [
      'accounts',
      'accounts.sessions',
      'discovery',
      'discovery.trending',
      'federation',
      'federation.domainBlocks',
      'filters',
      'filters.ofViewer',
      'hashtags',
      'hashtags.trending',
      'media',
      'media.servable',
      'media.variants',
      'stats',
      'syndication',
      'syndication.feeds',
      'web',
      'web.placeCounts',
    ]);
    for (const body of [{ scope: 5 }, { scope: '' }, { scope: 'stats', all: true }]) {
      const res = await purge(t, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
    }
    assert.equal(await usersTotal(t), 3, 'the stats snapshot was not purged');
  });

  it('refuses a user token and no token with 401', async () => {
    assert.equal((await purge(t, {}, userToken)).statusCode, 401);
    assert.equal((await t.request({ method: 'POST', url: '/admin/cache/purge', body: {} })).statusCode, 401);
    assert.equal(await usersTotal(t), 3);
  });
});

describe('a cache purge across instances', () => {
  let one: TestApp;
  let two: TestApp;
  let databases: Array<{ close(): Promise<void> }>;
  before(async () => {
    const shared = new LocalBroadcast();
    const database = await openTestDatabase();
    const other = await openAnotherInstance(database);
    databases = [other, database];
    one = await createTestApp({ database, deps: { broadcast: await instanceBroadcast(database, shared) } });
    two = await createTestApp({
      database: other.database,
      clock: one.clock,
      deps: { broadcast: await instanceBroadcast(other.database, shared) },
    });
  });
  after(async () => {
    await two.close();
    await one.close();
    for (const database of databases) await database.close();
  });

  it('empties the caches of the other instance too', async () => {
    await createUser(one);
    assert.equal(await usersTotal(two), 1);
    await createUser(one);
    assert.equal(await usersTotal(two), 1, 'the other instance keeps its snapshot');
    assert.equal((await purge(one, { scope: 'stats' })).statusCode, 200);
    await waitFor('the purge on the other instance', async () => (await usersTotal(two)) === 2);
  });
});
