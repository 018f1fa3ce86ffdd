import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp, type TestResponse } from '../../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../../test/helpers/factories.ts';
import { waitFor } from '../../../../test/helpers/wait-for.ts';
import {
  type IdentityProviders,
  startIdentityProviders,
  testClientIds,
} from '../../../../test/support/identity-providers.ts';

const origin = 'http://localhost:80';
const fromSite = { origin };

/** The `tm_session` Set-Cookie of an answer, split in attributes. */
function sessionCookie(setCookie: string | string[] | undefined) {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const line = list.find((cookie) => cookie.startsWith('tm_session='));
  assert.ok(line, `no tm_session cookie in ${JSON.stringify(list)}`);
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
  return { line, value: decodeURIComponent(pair.slice('tm_session='.length)), attributes };
}

describe('web sign-in', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const login = (body: unknown, headers: Record<string, string> = fromSite) =>
    t.request({ method: 'POST', url: '/login', body, headers: { accept: 'application/json', ...headers } });

  it('signs in with POST /login: an HttpOnly, SameSite=Lax cookie of a session the API lists', async () => {
    const user = await createUser(t);
    const res = await login({ login: user.username, password: strongPassword });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const cookie = sessionCookie(res.headers['set-cookie']);
    assert.ok(cookie.value.length > 20);
    assert.ok(cookie.attributes.includes('HttpOnly'));
    assert.ok(cookie.attributes.includes('SameSite=Lax'));
    assert.ok(cookie.attributes.includes('Path=/'));
    assert.ok(!cookie.attributes.includes('Secure'), 'plain http: no Secure');
    assert.ok(cookie.attributes.some((attribute) => /^Max-Age=\d+$/.test(attribute)));
    // The body names the session, never its token.
    assert.equal(res.json.data.type, 'sessions');
    assert.ok(!res.body.includes(cookie.value));

    // The cookie's token is a session of the same table: the API lists it (with a Bearer token).
    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions', token: user.token });
    assert.ok(sessions.json.data.some((session: { id: string }) => session.id === res.json.data.id));
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: cookie.value });
    assert.equal(me.json.data.id, user.id);
  });

  it('signs in with an e-mail too, and refuses a wrong password with the API answer', async () => {
    const user = await createUser(t);
    assert.equal((await login({ email: user.email, password: strongPassword })).statusCode, 200);
    const wrong = await login({ login: user.email, password: 'not-the-password-1' });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json.errors[0].code, 'invalidCredentials');
    assert.equal(wrong.headers['set-cookie'], undefined);
    const both = await login({ login: user.email, email: user.email, password: strongPassword });
    assert.equal(both.statusCode, 422);
  });

  it('takes JSON only: a form post is 415, so no other site can post a sign-in form', async () => {
    const user = await createUser(t);
    const res = await t.request({
      method: 'POST',
      url: '/login',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: `login=${user.username}&password=${strongPassword}`,
    });
    assert.equal(res.statusCode, 415);
  });

  it('refuses a sign-in from another site (login CSRF) with 403 crossOriginRequest', async () => {
    const user = await createUser(t);
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { referer: 'https://evil.example/page' },
      {},
    ];
    for (const headers of refused) {
      const res = await login({ login: user.username, password: strongPassword }, headers);
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.equal(res.json.errors[0].code, 'crossOriginRequest');
      assert.equal(res.headers['set-cookie'], undefined);
    }
    // Refused before the body is validated: a bad body from another site is 403 too, not 422.
    const badBody = await login({ nothing: true }, { origin: 'https://evil.example' });
    assert.equal(badBody.statusCode, 403);
    // Same-site evidence other than Origin: Sec-Fetch-Site, or a Referer of ours.
    assert.equal(
      (await login({ login: user.username, password: strongPassword }, { 'sec-fetch-site': 'same-origin' })).statusCode,
      200,
    );
    assert.equal(
      (await login({ login: user.username, password: strongPassword }, { referer: `${origin}/login` })).statusCode,
      200,
    );
  });

  it('marks the cookie Secure behind a trusted https proxy', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const user = await createUser(proxied);
      const res = await proxied.request({
        method: 'POST',
        url: '/login',
        body: { login: user.username, password: strongPassword },
        headers: { origin: 'https://localhost:80', 'x-forwarded-proto': 'https', accept: 'application/json' },
      });
      assert.equal(res.statusCode, 200);
      assert.ok(sessionCookie(res.headers['set-cookie']).attributes.includes('Secure'));
    } finally {
      await proxied.close();
    }
    // Without TRUST_PROXY the header is not believed.
    const user = await createUser(t);
    const res = await login(
      { login: user.username, password: strongPassword },
      { origin, 'x-forwarded-proto': 'https' },
    );
    assert.ok(!sessionCookie(res.headers['set-cookie']).attributes.includes('Secure'));
  });

  it('names the viewer on pages, but the API never accepts the cookie', async () => {
    const user = await createUser(t, { nickname: 'Cookie Monster' });
    const cookie = sessionCookie(
      (await login({ login: user.username, password: strongPassword })).headers['set-cookie'],
    );
    const page = await t.request({ method: 'GET', url: '/login', headers: { cookie: `tm_session=${cookie.value}` } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Cookie Monster/);
    assert.match(page.body, /id="signed-in"/);

    const me = await t.request({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: `tm_session=${cookie.value}` },
    });
    assert.equal(me.statusCode, 401);
    const write = await t.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: `tm_session=${cookie.value}`, origin },
    });
    assert.equal(write.statusCode, 401);
    // The session is still alive.
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: cookie.value })).statusCode, 200);
  });

  it('ends the session with POST /logout from the site, clears the cookie and goes home', async () => {
    const user = await createUser(t);
    const signedIn = await login({ login: user.username, password: strongPassword });
    const cookie = sessionCookie(signedIn.headers['set-cookie']);
    const res = await t.request({
      method: 'POST',
      url: '/logout',
      headers: { cookie: `tm_session=${cookie.value}`, origin },
    });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/');
    const cleared = sessionCookie(res.headers['set-cookie']);
    assert.equal(cleared.value, '');
    assert.ok(cleared.attributes.includes('Max-Age=0'));
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: cookie.value })).statusCode, 401);
    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions', token: user.token });
    assert.ok(!sessions.json.data.some((session: { id: string }) => session.id === signedIn.json.data.id));
    // The pages' sign-out button posts an empty HTML form.
    const form = await t.request({
      method: 'POST',
      url: '/logout',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    assert.equal(form.statusCode, 302);
    // Again, without a session: still clears the cookie.
    const again = await t.request({
      method: 'POST',
      url: '/logout',
      headers: { cookie: `tm_session=${cookie.value}`, origin },
    });
    assert.equal(again.statusCode, 302);
  });

  it('ends the previous web session of the browser when it signs in again', async () => {
    const first = await createUser(t);
    const second = await createUser(t);
    const old = sessionCookie((await login({ login: first.username, password: strongPassword })).headers['set-cookie']);
    const res = await login(
      { login: second.username, password: strongPassword },
      { origin, cookie: `tm_session=${old.value}` },
    );
    assert.equal(res.statusCode, 200);
    assert.notEqual(sessionCookie(res.headers['set-cookie']).value, old.value);
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: old.value })).statusCode, 401);
  });

  it('refuses a cross-site POST /logout and keeps the session', async () => {
    const user = await createUser(t);
    const cookie = sessionCookie(
      (await login({ login: user.username, password: strongPassword })).headers['set-cookie'],
    );
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/' },
      {},
    ];
    for (const headers of refused) {
      const res = await t.request({
        method: 'POST',
        url: '/logout',
        headers: { cookie: `tm_session=${cookie.value}`, accept: 'application/json', ...headers },
      });
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.equal(res.json.errors[0].code, 'crossOriginRequest');
    }
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: cookie.value })).statusCode, 200);
  });

  it('goes only to a path of this site after signing in (no open redirect)', async () => {
    const nextOf = async (next: string) => {
      const page = await t.request({ method: 'GET', url: `/login?next=${encodeURIComponent(next)}` });
      assert.equal(page.statusCode, 200);
      const match = /data-next="([^"]*)"/.exec(page.body);
      assert.ok(match, 'the form names where to go');
      return match[1];
    };
    assert.equal(await nextOf('/explorer'), '/explorer');
    assert.equal(await nextOf('/@ana?tab=likes'), '/@ana?tab=likes');
    for (const evil of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'evil.example',
    ]) {
      assert.equal(await nextOf(evil), '/', evil);
    }
  });

  it('renders the sign-in page with its form, script and styles from this site', async () => {
    const page = await t.request({ method: 'GET', url: '/login', headers: { 'accept-language': 'fr-FR' } });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<form id="login-form"/);
    assert.match(page.body, /Connexion/);
    assert.match(page.body, /<label for="login-password">Mot de passe<\/label>/);
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(scripts.some((src) => /^\/assets\/login\.[A-Za-z0-9_-]+\.js$/.test(src)));
    for (const src of scripts) assert.ok(src.startsWith('/'), `${src} is same-origin`);
    for (const src of scripts) {
      const asset = await t.request({ method: 'GET', url: src });
      assert.equal(asset.statusCode, 200, src);
    }
  });

  it('confirms an address only by the button of the mailed link, a plain form: GET and HEAD change nothing', async () => {
    const email = 'web-confirm@example.test';
    const register = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: strongPassword },
    });
    assert.equal(register.statusCode, 201);
    const mail = await waitFor('the confirmation mail', () => t.mail.last(email));
    const token = /\/login\?confirm=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    assert.ok(token);
    const accessToken = register.json.data.attributes.accessToken;
    const me = () => t.request({ method: 'GET', url: '/api/auth/me', token: accessToken });

    // Link checkers and mail scanners fetch the link: nothing happens.
    const head = await t.request({ method: 'HEAD', url: `/login?confirm=${token}` });
    assert.equal(head.statusCode, 200);
    const page = await t.request({
      method: 'GET',
      url: `/login?confirm=${token}`,
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /<meta name="robots" content="noindex"/);
    assert.equal((await me()).json.data.attributes.emailConfirmed, false, 'the GET confirmed nothing');
    // The page's button posts the token as an HTML form: no script needed.
    const form = /<form id="confirm-form"[^>]*>[\s\S]*?<\/form>/.exec(page.body)?.[0];
    assert.ok(form, page.body);
    assert.match(form, /method="post"/);
    assert.match(form, /action="\/login\/confirm-email"/);
    assert.match(form, /Confirmer mon adresse/);
    assert.equal(/<input type="hidden" name="token" value="([^"]+)"/.exec(form)?.[1], token);

    const posted = await t.request({
      method: 'POST',
      url: '/login/confirm-email',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({ token }).toString(),
    });
    assert.equal(posted.statusCode, 200);
    assert.match(String(posted.headers['content-type']), /^text\/html/);
    assert.equal(posted.headers['cache-control'], 'no-store');
    assert.match(posted.body, /data-outcome="done"/);
    assert.match(posted.body, /<form id="login-form"(?![^>]*hidden)/, 'the sign-in form, to sign in again');
    assert.equal((await me()).statusCode, 401, 'confirming ended the sessions opened before it');
    const signedIn = await login({ email, password: strongPassword });
    const confirmed = await t.request({
      method: 'GET',
      url: '/api/auth/me',
      token: sessionCookie(signedIn.headers['set-cookie']).value,
    });
    assert.equal(confirmed.json.data.attributes.emailConfirmed, true);

    // Followed again: already confirmed, a page and not an error, with no button.
    const again = await t.request({ method: 'GET', url: `/login?confirm=${token}` });
    assert.equal(again.statusCode, 200);
    assert.match(again.body, /data-outcome="tokenUsed"/);
    assert.match(again.body, /already confirmed/);
    assert.doesNotMatch(again.body, /confirm-form/);
    const bogus = await t.request({ method: 'GET', url: '/login?confirm=not-a-token' });
    assert.equal(bogus.statusCode, 200);
    assert.match(bogus.body, /data-outcome="invalidToken"/);
    const bogusPost = await t.request({
      method: 'POST',
      url: '/login/confirm-email',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=not-a-token',
    });
    assert.equal(bogusPost.statusCode, 200);
    assert.match(bogusPost.body, /data-outcome="invalidToken"/);
    const twice = await t.request({
      method: 'POST',
      url: '/login/confirm-email',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${token}&token=${token}`,
    });
    assert.equal(twice.statusCode, 422);
  });

  it('every confirmation link mailed works until the address is confirmed', async () => {
    const email = 'web-confirm-twice@example.test';
    await t.request({ method: 'POST', url: '/api/auth/register', body: { email, password: strongPassword } });
    const tokens = async (count: number) => {
      const mails = await waitFor('the confirmation mails', () => {
        const sent = t.mail.sent.filter((mail) => mail.to === email);
        return sent.length >= count ? sent : null;
      });
      return mails.map((mail) => /\/login\?confirm=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!);
    };
    await tokens(1);
    t.clock.advanceMinutes(1);
    await t.request({ method: 'POST', url: '/api/auth/resend-confirmation', body: { email } });
    const [first, second] = await tokens(2);
    const click = (token: string) =>
      t.request({
        method: 'POST',
        url: '/login/confirm-email',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `token=${token}`,
      });
    assert.match((await t.request({ method: 'GET', url: `/login?confirm=${first}` })).body, /confirm-form/);
    assert.match((await click(first!)).body, /data-outcome="done"/);
    for (const token of [second!, first!]) {
      const page = await t.request({ method: 'GET', url: `/login?confirm=${token}` });
      assert.match(page.body, /data-outcome="tokenUsed"/, 'already confirmed');
      const clicked = await click(token);
      assert.equal(clicked.statusCode, 200);
      assert.match(clicked.body, /data-outcome="tokenUsed"/);
    }
  });

  /** A mailed link's form as a browser without script posts it: its action, hidden fields and `extra` ones. */
  const submit = (page: TestResponse, formId: string, extra: Record<string, string> = {}) => {
    const form = new RegExp(`<form id="${formId}"[^>]*>[\\s\\S]*?</form>`).exec(page.body)?.[0];
    assert.ok(form, page.body);
    assert.match(form, /method="post"/);
    const action = /action="([^"]+)"/.exec(form)![1]!;
    const hidden = [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]+)"/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]);
    return t.request({
      method: 'POST',
      url: action,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams([...hidden, ...Object.entries(extra)]).toString(),
    });
  };

  it('sets a new password from the plain form of a reset link; every reset link works until one is used', async () => {
    const user = await createUser(t);
    const resetLink = async (count: number) => {
      await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
      const mails = await waitFor('the reset mails', () => {
        const sent = t.mail.sent.filter((mail) => mail.to === user.email && /\/login\?reset=/.test(mail.text));
        return sent.length >= count ? sent : null;
      });
      return /\/login\?reset=[A-Za-z0-9_-]+/.exec(mails[count - 1]!.text)![0];
    };
    const first = await resetLink(1);
    t.clock.advanceMinutes(1);
    const second = await resetLink(2);
    const page = await t.request({ method: 'GET', url: first });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /<meta name="robots" content="noindex"/);
    assert.match(page.body, /<form id="reset-form"[^>]*action="\/login\/reset-password"/);

    const weak = await submit(page, 'reset-form', { password: 'short' });
    assert.equal(weak.statusCode, 200);
    assert.match(weak.body, /<p id="link-error" class="form-error" role="alert">/, 'the form again, with the error');
    assert.match(weak.body, /<form id="reset-form"/);
    const newPassword = 'a-new-password-42';
    const done = await submit(page, 'reset-form', { password: newPassword });
    assert.equal(done.statusCode, 200);
    assert.match(done.body, /data-kind="reset" data-outcome="done"/);
    assert.match(done.body, /<form id="login-form"(?![^>]*hidden)/, 'the sign-in form, to sign in again');
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 401);
    assert.equal((await login({ login: user.username, password: newPassword })).statusCode, 200);

    const secondPage = await t.request({ method: 'GET', url: second });
    const late = await submit(secondPage, 'reset-form', { password: 'yet-another-one-43' });
    assert.match(late.body, /data-kind="reset" data-outcome="tokenUsed"/);
    assert.equal((await login({ login: user.username, password: newPassword })).statusCode, 200, 'unchanged');
  });

  it('asks for a click on an account-deletion link: a plain form, and the GET spends nothing', async () => {
    const user = await createUser(t);
    const asked = await t.request({
      method: 'DELETE',
      url: '/api/users/me',
      token: user.token,
      body: { password: strongPassword },
    });
    assert.equal(asked.statusCode, 202);
    const mail = await waitFor('the deletion mail', () =>
      t.mail.sent.find((sent) => sent.to === user.email && /\/login\?delete=/.test(sent.text)),
    );
    const link = /\/login\?delete=[A-Za-z0-9_-]+/.exec(mail.text)![0];
    assert.equal((await t.request({ method: 'HEAD', url: link })).statusCode, 200);
    const page = await t.request({ method: 'GET', url: link, headers: { 'accept-language': 'fr-FR' } });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /<meta name="robots" content="noindex"/);
    assert.match(page.body, /Supprimer mon compte/);
    assert.match(page.body, /<form id="delete-form"[^>]*action="\/login\/delete-account"/);
    // The GET and the HEAD spent nothing: the account still works.
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 200);

    const confirmed = await submit(page, 'delete-form');
    assert.equal(confirmed.statusCode, 200);
    assert.match(confirmed.body, /data-kind="delete" data-outcome="done"/);
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 401);
    const again = await submit(page, 'delete-form');
    assert.equal(again.statusCode, 200);
    assert.match(again.body, /data-kind="delete" data-outcome="invalidToken"/);
  });

  it('signs in with a provider on POST /auth/oauth/{provider} only from the site', async () => {
    const unknown = await t.request({
      method: 'POST',
      url: '/auth/oauth/myspace',
      body: { accessToken: 'x' },
      headers: { origin, accept: 'application/json' },
    });
    assert.equal(unknown.statusCode, 404);
    const crossSite = await t.request({
      method: 'POST',
      url: '/auth/oauth/google',
      body: { idToken: 'x' },
      headers: { origin: 'https://evil.example', accept: 'application/json' },
    });
    assert.equal(crossSite.statusCode, 403);
    assert.equal(crossSite.json.errors[0].code, 'crossOriginRequest');
  });
});

describe('web sign-in with an identity provider', () => {
  let t: TestApp;
  let providers: IdentityProviders;
  before(async () => {
    providers = await startIdentityProviders();
    t = await createTestApp({ env: providers.env });
  });
  after(async () => {
    await t.close();
    await providers.close();
  });

  const googleToken = (subject: string, email: string) =>
    providers.google.sign(
      { sub: subject, aud: testClientIds.google, email, email_verified: true },
      { now: t.clock.now() },
    );
  const signIn = (body: unknown, headers: Record<string, string> = fromSite) =>
    t.request({ method: 'POST', url: '/auth/oauth/google', body, headers: { accept: 'application/json', ...headers } });

  it('creates the account (201), then signs into it (200), each time with a cookie session', async () => {
    const email = 'web-google@example.test';
    const first = await signIn({ idToken: await googleToken('web-google-1', email) });
    assert.equal(first.statusCode, 201, first.body);
    const cookie = sessionCookie(first.headers['set-cookie']);
    assert.ok(cookie.attributes.includes('HttpOnly') && cookie.attributes.includes('SameSite=Lax'));
    assert.ok(!first.body.includes(cookie.value), 'the token stays in the cookie');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: cookie.value });
    assert.equal(me.json.data.attributes.email, email);

    const second = await signIn({ idToken: await googleToken('web-google-1', email) });
    assert.equal(second.statusCode, 200, second.body);
    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions', token: cookie.value });
    const ids = sessions.json.data.map((session: { id: string }) => session.id);
    assert.ok(ids.includes(first.json.data.id) && ids.includes(second.json.data.id));
  });

  it('answers the API rules: a bad token is 401, an e-mail of another account 409, and sets no cookie', async () => {
    const bad = await signIn({ idToken: 'not-a-jwt' });
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.json.errors[0].code, 'invalidProviderToken');
    assert.equal(bad.headers['set-cookie'], undefined);
    const user = await createUser(t);
    const taken = await signIn({ idToken: await googleToken('web-google-2', user.email) });
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json.errors[0].code, 'identityEmailInUse');
    const crossSite = await signIn(
      { idToken: await googleToken('web-google-3', 'x3@example.test') },
      { origin: 'https://evil.example' },
    );
    assert.equal(crossSite.statusCode, 403);
  });
});
