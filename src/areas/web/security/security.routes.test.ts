/**
 * Passkeys on the web pages: the sign-in page offers a passkey (button and autofill), POST
 * /auth/passkey signs in with the cookie, and the security page lists, registers (through its cookie
 * routes) and deletes passkeys; every cookie write refuses another site and a missing session.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../../test/helpers/factories.ts';
import { SoftwareAuthenticator } from '../../../../test/support/software-authenticator.ts';

const origin = 'https://travel.example.test';
const fromSite = { origin, accept: 'application/json' };

function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const line = list.find((cookie) => cookie.startsWith('tm_session='));
  assert.ok(line, `no tm_session cookie in ${JSON.stringify(list)}`);
  return line.split(';')[0]!;
}

describe('passkeys on the web pages', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: origin } });
  });
  after(() => t.close());

  /** The user signed in on the web: the cookie header of their session. */
  const webSignIn = async (user: TestUser) => {
    const res = await t.request({
      method: 'POST',
      url: '/login',
      headers: fromSite,
      body: { login: user.username, password: strongPassword },
    });
    assert.equal(res.statusCode, 200, res.body);
    return sessionCookieOf(res.headers['set-cookie']);
  };
  const cookieRequest = (cookie: string, method: 'GET' | 'POST', url: string, body?: unknown, extra = {}) =>
    t.request({ method, url, body, headers: { ...fromSite, cookie, ...extra } });

  it('offers a passkey on the sign-in page: autofill on the login field and a button, in both languages', async () => {
    const english = await t.request({ method: 'GET', url: '/login' });
    assert.equal(english.statusCode, 200);
    assert.match(english.body, /autocomplete="username webauthn"/);
    assert.match(english.body, /id="passkey-button"[^>]*>Sign in with a passkey</);
    const french = await t.request({ method: 'GET', url: '/login', headers: { 'accept-language': 'fr-FR' } });
    assert.match(french.body, /Se connecter avec une clé d(&#39;|')accès/);
  });

  it('registers a passkey from the security page, lists it escaped, and deletes it with its form', async () => {
    const user = await createUser(t);
    const cookie = await webSignIn(user);
    const empty = await cookieRequest(cookie, 'GET', '/security');
    assert.equal(empty.statusCode, 200);
    assert.equal(empty.headers['cache-control'], 'no-store');
    assert.match(empty.body, /You have no passkey yet/);
    assert.match(empty.body, /<script[^>]+nonce="[^"]+"[^>]+src="\/assets\/security\.[\w-]+\.js"/);

    const options = await cookieRequest(cookie, 'POST', '/security/passkeys/options', {});
    assert.equal(options.statusCode, 200, options.body);
    const authenticator = new SoftwareAuthenticator(origin);
    const credential = authenticator.create(options.json.data.attributes.publicKey);
    const created = await cookieRequest(cookie, 'POST', '/security/passkeys', { name: '<b>Phone</b>', credential });
    assert.equal(created.statusCode, 201, created.body);
    assert.match(t.mail.last(user.email)?.subject ?? '', /passkey was added/);

    const listed = await cookieRequest(cookie, 'GET', '/security');
    assert.match(listed.body, /&lt;b>Phone&lt;\/b>/);
    assert.ok(!listed.body.includes('<b>Phone</b>'));
    assert.match(listed.body, /never used/);

    const id = created.json.data.id as string;
    const deleted = await t.request({
      method: 'POST',
      url: `/security/passkeys/${id}/delete`,
      headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    assert.equal(deleted.statusCode, 302, deleted.body);
    assert.equal(deleted.headers.location, '/security');
    assert.match(t.mail.last(user.email)?.subject ?? '', /passkey was removed/);
    assert.match((await cookieRequest(cookie, 'GET', '/security')).body, /You have no passkey yet/);
  });

  it('refuses the cookie writes from another site, without a session, and a bearer token alone', async () => {
    const user = await createUser(t);
    const cookie = await webSignIn(user);
    const foreign = await cookieRequest(
      cookie,
      'POST',
      '/security/passkeys/options',
      {},
      {
        origin: 'https://evil.example.test',
      },
    );
    assert.equal(foreign.statusCode, 403);
    assert.equal(foreign.json.errors[0].code, 'crossOriginRequest');
    const none = await t.request({ method: 'POST', url: '/security/passkeys/options', headers: fromSite, body: {} });
    assert.equal(none.statusCode, 401);
    const bearer = await t.request({
      method: 'POST',
      url: '/security/passkeys/options',
      token: user.token,
      headers: fromSite,
      body: {},
    });
    assert.equal(bearer.statusCode, 401, 'the page routes read the cookie only');
    const anonymousPage = await t.request({ method: 'GET', url: '/security' });
    assert.equal(anonymousPage.statusCode, 200);
    assert.match(anonymousPage.body, /href="\/login\?next=%2Fsecurity"/);
  });

  it('signs in on the web with a passkey alone: POST /auth/passkey sets the cookie of a passkey session', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await t.request({
      method: 'POST',
      url: '/api/users/me/passkeys/options',
      token: user.token,
      body: {},
    });
    const credential = authenticator.create(options.json.data.attributes.publicKey);
    const registered = await t.request({
      method: 'POST',
      url: '/api/users/me/passkeys',
      token: user.token,
      body: { credential },
    });
    assert.equal(registered.statusCode, 201, registered.body);

    const challenge = await t.request({ method: 'POST', url: '/api/auth/passkey/options' });
    const assertion = authenticator.get(challenge.json.data.attributes.publicKey);
    const foreign = await t.request({
      method: 'POST',
      url: '/auth/passkey',
      headers: { ...fromSite, origin: 'https://evil.example.test' },
      body: { credential: assertion },
    });
    assert.equal(foreign.statusCode, 403);
    const res = await t.request({
      method: 'POST',
      url: '/auth/passkey',
      headers: fromSite,
      body: { credential: assertion },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json.data.attributes.signInMethod, 'passkey');
    const cookie = sessionCookieOf(res.headers['set-cookie']);
    const page = await cookieRequest(cookie, 'GET', '/security');
    assert.match(page.body, /class="site-account__security"/);
    assert.match(page.body, /last used/);
  });
});
