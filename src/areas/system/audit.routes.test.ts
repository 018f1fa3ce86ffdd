/** GET /admin/audit: every admin write leaves an entry; filters, keyset pages, bad input. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('GET /admin/audit', () => {
  let t: TestApp;
  let mediaId: string;
  let userToken: string;
  const start = '2026-11-21T12:00:00.000+00:00';

  const audit = async (query = '') => {
    const res = await t.request({ method: 'GET', url: `/admin/audit${query}`, token: adminToken });
    assert.equal(res.statusCode, 200, res.body);
    return res.json;
  };
  const actions = (document: any) => document.data.map((entry: any) => entry.attributes.action);

  before(async () => {
    t = await createTestApp();
    const user = await createUser(t);
    userToken = user.token;
    mediaId = (await createMediaRow(t, user.user.id)).id;
    // Admin writes of several areas, a minute apart.
    const calls = [
      { method: 'PUT', url: `/admin/media/${mediaId}/flag`, body: { flag: 1 } },
      { method: 'PUT', url: `/admin/media/${mediaId}/published`, body: { published: false } },
      { method: 'PUT', url: '/admin/maintenance', body: { enabled: false } },
      { method: 'POST', url: '/admin/cache/purge', body: { scope: 'media' } },
      { method: 'POST', url: '/admin/jobs/flush/stats' },
    ] as const;
    for (const call of calls) {
      t.clock.advance(60_000);
      const res = await t.request({ ...call, token: adminToken });
      assert.equal(res.statusCode, 200, `${call.url}: ${res.body}`);
    }
  });
  after(() => t.close());

  it('lists every admin action newest first, with actor, action, target, payload and time', async () => {
    const document = await audit();
    assert.deepEqual(actions(document), [
      'jobs.flush',
      'cache.purge',
      'maintenance.set',
      'media.published',
      'media.flag',
    ]);
    const flag = document.data[4];
    assert.equal(flag.type, 'auditEntries');
    assert.match(flag.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(flag.attributes, {
      actor: 'admin',
      action: 'media.flag',
      target: { type: 'media', id: mediaId },
      payload: { flag: 1 },
      createdAt: '2026-11-21T12:01:00.000+00:00',
    });
    assert.deepEqual(document.data[2].attributes.payload, { enabled: false, message: null, retryAfterSeconds: 300 });
    assert.deepEqual(document.data[1].attributes.target, { type: 'cache', id: 'media' });
    assert.equal(document.meta.limit, 50);
  });

  it('filters by exact action or by a prefix ending with a dot, and by target', async () => {
    assert.deepEqual(actions(await audit('?action=media.flag')), ['media.flag']);
    assert.deepEqual(actions(await audit('?action=media.')), ['media.published', 'media.flag']);
    assert.deepEqual(actions(await audit('?action=media')), [], 'no dot: an exact action');
    assert.deepEqual(actions(await audit(`?targetType=media&targetId=${mediaId}`)), ['media.published', 'media.flag']);
    assert.deepEqual(actions(await audit('?targetType=job')), ['jobs.flush']);
  });

  it('filters by time: since included, until excluded', async () => {
    const since = encodeURIComponent('2026-11-21T12:02:00.000+00:00');
    const until = encodeURIComponent('2026-11-21T14:04:00+02:00');
    assert.deepEqual(actions(await audit(`?since=${since}&until=${until}`)), ['maintenance.set', 'media.published']);
    assert.deepEqual(actions(await audit(`?until=${encodeURIComponent(start)}`)), []);
  });

  it('pages with keyset cursors both ways, keeping the filters', async () => {
    const filtered = await audit('?limit=1&action=media.');
    assert.deepEqual(actions(filtered), ['media.published']);
    assert.match(filtered.links.next, /[?&]action=media\.(&|$)/);
    assert.deepEqual(actions(await audit(new URL(filtered.links.next).search)), ['media.flag']);
    const page1 = await audit('?limit=2');
    assert.deepEqual(actions(page1), ['jobs.flush', 'cache.purge']);
    assert.equal(page1.links.prev, null);
    const next = new URL(page1.links.next);
    const page2 = await audit(`${next.search}`);
    assert.deepEqual(actions(page2), ['maintenance.set', 'media.published']);
    const back = await audit(new URL(page2.links.prev).search);
    assert.deepEqual(actions(back), ['jobs.flush', 'cache.purge']);
    const last = await audit(new URL(page2.links.next).search);
    assert.deepEqual(actions(last), ['media.flag']);
    assert.equal(last.links.next, null);
  });

  it('refuses malformed times, a reversed window, unknown parameters and bad limits with 400', async () => {
    for (const [query, parameter] of [
      ['?since=yesterday', 'since'],
      ['?since=2026-11-21T12:00:00', 'since'],
      ['?until=2026-02-30T00:00:00Z', 'until'],
      [`?since=${encodeURIComponent('2026-11-22T00:00:00Z')}&until=${encodeURIComponent(start)}`, 'until'],
      ['?limit=201', 'limit'],
      ['?actor=admin', 'actor'],
      ['?cursor=nonsense', 'cursor'],
    ] as const) {
      const res = await t.request({ method: 'GET', url: `/admin/audit${query}`, token: adminToken });
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.equal(res.json.errors[0].source.parameter, parameter, query);
    }
  });

  it('refuses a user token and no token with 401', async () => {
    for (const token of [userToken, undefined]) {
      const res = await t.request({ method: 'GET', url: '/admin/audit', ...(token ? { token } : {}) });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json.errors[0].code, 'unauthenticated');
    }
  });
});
