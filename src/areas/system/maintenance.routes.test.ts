/**
 * Maintenance mode: GET|PUT /admin/maintenance, what it closes (every public and user route, media
 * files, HTML pages) and what stays open (/api/ping, the admin API); and a second instance on the same
 * database follows within about a second (separate pools on PostgreSQL; on PGlite the one database).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openAnotherInstance } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';

const put = (t: TestApp, body: unknown, token = adminToken) =>
  t.request({ method: 'PUT', url: '/admin/maintenance', token, body });
const state = async (t: TestApp) =>
  (await t.request({ method: 'GET', url: '/admin/maintenance', token: adminToken })).json.data.attributes;

describe('maintenance mode', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof createUser>>;
  before(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  after(() => t.close());

  it('is off until an operator turns it on', async () => {
    const res = await t.request({ method: 'GET', url: '/admin/maintenance', token: adminToken });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json.data, {
      type: 'maintenance',
      id: 'maintenance',
      attributes: { enabled: false, message: null, retryAfterSeconds: 300, updatedAt: null },
    });
  });

  it('refuses wrong types and out-of-range values with 422, changing nothing', async () => {
    for (const [body, pointer] of [
      [{ enabled: 'yes' }, '/enabled'],
      [{}, '/enabled'],
      [{ enabled: true, retryAfterSeconds: 0 }, '/retryAfterSeconds'],
      [{ enabled: true, retryAfterSeconds: 86_401 }, '/retryAfterSeconds'],
      [{ enabled: true, retryAfterSeconds: 1.5 }, '/retryAfterSeconds'],
      [{ enabled: true, retryAfterSeconds: '60' }, '/retryAfterSeconds'],
      [{ enabled: true, message: 'x'.repeat(501) }, '/message'],
      [{ enabled: true, message: 42 }, '/message'],
      [{ enabled: true, until: 'tomorrow' }, '/until'],
    ] as const) {
      const res = await put(t, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json.errors[0].code, 'validationFailed');
      assert.equal(res.json.errors[0].source.pointer, pointer, JSON.stringify(body));
    }
    assert.equal((await state(t)).enabled, false);
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 200);
    const audit = await t.request({ method: 'GET', url: '/admin/audit?action=maintenance.set', token: adminToken });
    assert.deepEqual(audit.json.data, []);
  });

  it('refuses a user token and no token with 401', async () => {
    for (const token of [user.token, '']) {
      const res = await t.request({
        method: 'PUT',
        url: '/admin/maintenance',
        ...(token ? { token } : {}),
        body: { enabled: true },
      });
      assert.equal(res.statusCode, 401);
    }
    assert.equal((await t.request({ method: 'GET', url: '/admin/maintenance', token: user.token })).statusCode, 401);
    assert.equal((await state(t)).enabled, false);
  });

  it('when on, answers every public and user route 503 with Retry-After and a localized title', async () => {
    t.clock.advance(60_000);
    const on = await put(t, { enabled: true, message: 'Database upgrade until 14:00 UTC.', retryAfterSeconds: 120 });
    assert.equal(on.statusCode, 200);
    assert.deepEqual(on.json.data.attributes, {
      enabled: true,
      message: 'Database upgrade until 14:00 UTC.',
      retryAfterSeconds: 120,
      updatedAt: '2026-11-21T12:01:00.000+00:00',
    });

    const me = await t.request({
      method: 'GET',
      url: '/api/auth/me',
      token: user.token,
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.equal(me.statusCode, 503);
    assert.equal(me.headers['retry-after'], '120');
    assert.deepEqual(me.json.errors[0], {
      status: '503',
      code: 'maintenance',
      title: 'Le service est en maintenance ; réessayez plus tard.',
      detail: 'Database upgrade until 14:00 UTC.',
      meta: { retryAfterSeconds: 120 },
    });
    for (const request of [
      { method: 'GET', url: '/api/i18n/locales' },
      { method: 'GET', url: '/api/auth/me' },
      { method: 'POST', url: '/api/auth/login', body: { email: user.user.email, password: 'whatever' } },
      { method: 'GET', url: `/media/${'a'.repeat(32)}.jpg`, headers: { accept: 'application/json' } },
    ] as const) {
      const res = await t.request(request);
      assert.equal(res.statusCode, 503, request.url);
      assert.equal(res.json.errors[0].code, 'maintenance');
      assert.equal(res.json.errors[0].title, 'The service is under maintenance; try again later.');
    }
    for (const url of [`/media/${'a'.repeat(32)}.jpg`, '/some/page']) {
      const page = await t.request({ method: 'GET', url, headers: { accept: 'text/html', 'accept-language': 'fr' } });
      assert.equal(page.statusCode, 503, url);
      assert.equal(page.headers['retry-after'], '120');
      assert.match(String(page.headers['content-type']), /^text\/html/);
      // The web layout's maintenance page (src/areas/web/layout/error-page.ts), with the translated title.
      assert.match(page.body, /<p class="status">503<\/p><h1>De retour bientôt<\/h1>/);
      assert.match(page.body, /<p>Le service est en maintenance ; réessayez plus tard.<\/p>/);
    }
  });

  it('keeps /api/ping and the admin API working', async () => {
    assert.equal((await t.request({ method: 'GET', url: '/api/ping' })).statusCode, 200);
    assert.equal((await state(t)).enabled, true);
    const stats = await t.request({ method: 'GET', url: '/admin/stats', token: adminToken });
    assert.equal(stats.statusCode, 200);
    const audit = await t.request({ method: 'GET', url: '/admin/audit?action=maintenance.set', token: adminToken });
    assert.equal(audit.statusCode, 200);
    assert.deepEqual(audit.json.data[0].attributes.payload, {
      enabled: true,
      message: 'Database upgrade until 14:00 UTC.',
      retryAfterSeconds: 120,
    });
  });

  it('when off again, every route answers as before; message and delay go back to their defaults', async () => {
    const off = await put(t, { enabled: false });
    assert.deepEqual(
      [off.json.data.attributes.enabled, off.json.data.attributes.message, off.json.data.attributes.retryAfterSeconds],
      [false, null, 300],
    );
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 200);
    assert.equal((await t.request({ method: 'GET', url: '/api/i18n/locales' })).statusCode, 200);
  });
});

describe('maintenance mode across instances on one database', () => {
  let one: TestApp;
  let two: TestApp;
  let second: { close(): Promise<void> };
  before(async () => {
    one = await createTestApp();
    const other = await openAnotherInstance(one.deps.database);
    second = other;
    two = await createTestApp({ database: other.database, clock: one.clock });
  });
  after(async () => {
    await two.close();
    await second.close();
    await one.close();
  });

  const locales = async (t: TestApp) => (await t.request({ method: 'GET', url: '/api/i18n/locales' })).statusCode;

  it('a change made on one instance reaches the other within about a second', async () => {
    assert.equal(await locales(two), 200, 'the other instance has read the state: off');
    assert.equal((await put(one, { enabled: true, retryAfterSeconds: 30 })).statusCode, 200);
    assert.equal(await locales(one), 503, 'at once on the instance that changed it');
    // The other instance reads the row at most once a second; five seconds leave room for a busy machine.
    await waitFor('maintenance on the other instance', async () => (await locales(two)) === 503, 5_000);
    const res = await two.request({ method: 'GET', url: '/api/i18n/locales' });
    assert.equal(res.headers['retry-after'], '30');
    assert.equal((await state(two)).enabled, true);

    assert.equal((await put(two, { enabled: false })).statusCode, 200);
    assert.equal(await locales(two), 200);
    await waitFor('the end of maintenance on the first instance', async () => (await locales(one)) === 200, 5_000);
  });
});
