import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';

describe('system routes and shared HTTP behaviour', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('GET /api/ping answers with the time and the engine', async () => {
    const res = await t.request({ method: 'GET', url: '/api/ping' });
    assert.equal(res.statusCode, 200);
    // JSON:API allows no media type parameter but ext and profile, so no charset.
    assert.equal(res.headers['content-type'], 'application/vnd.api+json');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(res.json.data.attributes, {
      status: 'ok',
      time: '2026-11-21T12:00:00.000+00:00',
      database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    });
  });

  it('GET /api/i18n/locales lists en-US (default) and fr-FR and says which was negotiated', async () => {
    const res = await t.request({ method: 'GET', url: '/api/i18n/locales', headers: { 'accept-language': 'fr-CA' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json.data.map((locale: any) => [locale.id, locale.attributes.default]),
      [
        ['en-US', true],
        ['fr-FR', false],
      ],
    );
    assert.equal(res.json.meta.negotiated, 'fr-FR');
  });

  it('answers unknown API routes with a JSON:API 404 and web routes with an HTML page', async () => {
    const api = await t.request({ method: 'GET', url: '/api/nothing-here' });
    assert.equal(api.statusCode, 404);
    assert.equal(api.json.errors[0].code, 'routeNotFound');
    assert.equal(api.json.errors[0].title, 'No route matches GET /api/nothing-here.');
    const web = await t.request({ method: 'GET', url: '/nothing-here', headers: { accept: 'text/html' } });
    assert.equal(web.statusCode, 404);
    assert.match(String(web.headers['content-type']), /^text\/html/);
    assert.match(web.body, /<p class="status">404<\/p><h1>Page not found<\/h1>/);
    assert.equal(web.headers['x-content-type-options'], 'nosniff');
    const webJson = await t.request({ method: 'GET', url: '/nothing-here', headers: { accept: 'application/json' } });
    assert.equal(webJson.json.errors[0].code, 'routeNotFound');
  });

  it('translates error titles into the negotiated locale and escapes HTML pages', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    assert.equal(res.json.errors[0].title, 'Une authentification est nécessaire.');
    const web = await t.request({ method: 'GET', url: '/<script>alert(1)</script>', headers: { accept: 'text/html' } });
    assert.ok(!web.body.includes('<script>'));
  });

  it('refuses text holding the NUL character with 400 (it cannot be stored), never 500', async () => {
    const user = await createUser(t);
    const inQuery = await t.request({ method: 'GET', url: '/api/users/search?q=a%00b' });
    assert.equal(inQuery.statusCode, 400);
    assert.deepEqual([inQuery.json.errors[0].code, inQuery.json.errors[0].source], ['badRequest', { parameter: 'q' }]);
    const inBody = await t.request({
      method: 'PUT',
      url: '/api/users/me/nickname',
      token: user.token,
      body: { nickname: 'a\u0000b' },
    });
    assert.equal(inBody.statusCode, 400);
    assert.deepEqual(inBody.json.errors[0].source, { pointer: '/nickname' });
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
    assert.equal(me.json.data.attributes.nickname, user.user.nickname, 'nothing was written');
  });

  it('answers URL errors found before routing as JSON:API documents', async () => {
    const long = await t.request({ method: 'GET', url: `/api/users/${'a'.repeat(300)}/followers` });
    assert.equal(long.statusCode, 414);
    assert.equal(long.json.errors[0].code, 'uriTooLong');
    const bad = await t.request({ method: 'GET', url: '/api/users/%E0%A4%A/followers' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json.errors[0].code, 'badRequest');
    assert.equal(bad.headers['x-content-type-options'], 'nosniff');
  });

  it('refuses deeply nested JSON with 400, never 500', async () => {
    for (const payload of ['['.repeat(5000) + ']'.repeat(5000), `${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}`]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 400, res.body.slice(0, 200));
      assert.equal(res.json.errors[0].code, 'badRequest');
    }
  });
});
