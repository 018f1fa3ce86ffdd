/**
 * The web sign-in's code step: the sign-in page carries the code form (hidden until the sign-in
 * answers twoFactorRequired) in both languages; POST /login answers the challenge without a cookie;
 * POST /login/two-factor sets the cookie only with the ticket and a right code, from this site.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../../test/helpers/factories.ts';
import { enableTwoFactor } from '../../../../test/helpers/two-factor.ts';

const fromSite = { origin: 'http://localhost:80', accept: 'application/json' };

describe('web sign-in with two-factor authentication', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('renders the code step, hidden, in the page language', async () => {
    const en = await t.request({ method: 'GET', url: '/login', headers: { 'accept-language': 'en-US' } });
    assert.equal(en.statusCode, 200);
    assert.match(en.body, /<form id="two-factor-form"[^>]*action="\/login\/two-factor"[^>]*hidden/);
    assert.match(en.body, /<input type="hidden" name="ticket"/);
    assert.match(en.body, /id="two-factor-code" name="code"[^>]*autocomplete="one-time-code"/);
    assert.match(en.body, /Two-factor authentication/);
    assert.match(en.body, /Use a recovery code/i);
    const fr = await t.request({ method: 'GET', url: '/login', headers: { 'accept-language': 'fr-FR' } });
    assert.match(fr.body, /Double authentification/);
    assert.match(fr.body, /Utilisez un code de secours/);
  });

  it('answers the password with the challenge and no cookie, then sets the cookie with a code', async () => {
    const user = await createUser(t);
    const device = await enableTwoFactor(t, user.token);
    const first = await t.request({
      method: 'POST',
      url: '/login',
      headers: fromSite,
      body: { login: user.username, password: strongPassword },
    });
    assert.equal(first.statusCode, 401, first.body);
    assert.equal(first.json.errors[0].code, 'twoFactorRequired');
    assert.equal(first.headers['set-cookie'], undefined);
    const { ticket } = first.json.errors[0].meta;

    const crossSite = await t.request({
      method: 'POST',
      url: '/login/two-factor',
      headers: { ...fromSite, origin: 'https://evil.example' },
      body: { ticket, code: device.code() },
    });
    assert.equal(crossSite.statusCode, 403);
    assert.equal(crossSite.json.errors[0].code, 'crossOriginRequest');
    const wrong = await t.request({
      method: 'POST',
      url: '/login/two-factor',
      headers: fromSite,
      body: { ticket, code: device.code(new Date(t.clock.now().getTime() + 600_000)) },
    });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.headers['set-cookie'], undefined);

    const done = await t.request({
      method: 'POST',
      url: '/login/two-factor',
      headers: fromSite,
      body: { ticket, code: device.code() },
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json.data.type, 'sessions');
    assert.equal(done.json.data.attributes.secondFactor, 'totp');
    const cookie = [done.headers['set-cookie']].flat().find((line) => line?.startsWith('tm_session='));
    assert.ok(cookie, 'the session cookie is set');
    const token = decodeURIComponent(cookie.split(';')[0]!.slice('tm_session='.length));
    assert.equal(done.body.includes(token), false, 'the token is in the cookie only');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
    assert.equal(me.json.data.id, user.id);
  });
});
