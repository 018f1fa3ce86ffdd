import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, factoryUserAgent, strongPassword, updateUserRow } from '../../../test/helpers/factories.ts';

describe('registration and login', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('registers, answers a session with the user included, and the token works', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'Ada@Example.test', password: strongPassword, username: 'ada', nickname: 'Ada L.' },
    });
    assert.equal(res.statusCode, 201);
    assert.match(res.headers['content-type'] as string, /^application\/vnd\.api\+json/);
    const { data, included } = res.json;
    assert.equal(data.type, 'sessions');
    assert.equal(data.attributes.tokenType, 'Bearer');
    assert.match(data.attributes.expiresAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    assert.equal(included[0].type, 'users');
    assert.equal(included[0].id, data.relationships.user.data.id);
    assert.equal(included[0].attributes.username, 'ada');
    assert.equal(included[0].attributes.emailConfirmed, false);
    assert.equal(included[0].attributes.hex, included[0].id.replaceAll('-', ''));

    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: data.attributes.accessToken });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json.data.attributes.email, 'Ada@Example.test');
  });

  it('refuses a duplicate e-mail (any case) and a duplicate username with 409, writing nothing', async () => {
    await createUser(t, { email: 'dup@example.test', username: 'dupname' });
    const byEmail = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'DUP@example.test', password: strongPassword },
    });
    assert.equal(byEmail.statusCode, 409);
    assert.equal(byEmail.json.errors[0].code, 'emailTaken');
    assert.equal(byEmail.json.errors[0].source.pointer, '/email');
    const byUsername = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'other@example.test', password: strongPassword, username: 'DupName' },
    });
    assert.equal(byUsername.statusCode, 409);
    assert.equal(byUsername.json.errors[0].code, 'usernameTaken');
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'other@example.test', password: strongPassword },
    });
    assert.equal(login.statusCode, 401, 'the refused registration left no account behind');
  });

  it('gives each kind of bad input its own 4xx with a pointer', async () => {
    const cases: Array<[unknown, number, string, string]> = [
      [{ email: 'not-an-email', password: strongPassword }, 422, 'validationFailed', '/email'],
      [{ email: 'a@example.test', password: 'short1' }, 422, 'weakPassword', '/password'],
      [{ email: 'a@example.test', password: 'onlyletterslongenough' }, 422, 'weakPassword', '/password'],
      [{ email: 'a@example.test', password: strongPassword, admin: true }, 422, 'validationFailed', '/admin'],
      [{ password: strongPassword }, 422, 'validationFailed', '/email'],
      [{ email: 'a@example.test', password: strongPassword, username: 'x' }, 422, 'validationFailed', '/username'],
      [{ email: 'a@example.test', password: strongPassword, username: 'admin' }, 409, 'usernameTaken', '/username'],
      [
        { email: 'a@example.test', password: strongPassword, nickname: 'n'.repeat(51) },
        422,
        'validationFailed',
        '/nickname',
      ],
      [
        { email: 'a@example.test', password: strongPassword, sponsorCode: 'NOPE' },
        422,
        'validationFailed',
        '/sponsorCode',
      ],
    ];
    for (const [body, status, code, pointer] of cases) {
      const res = await t.request({ method: 'POST', url: '/api/auth/register', body });
      assert.equal(res.statusCode, status, JSON.stringify(body));
      assert.ok(
        res.json.errors.some((error: any) => error.code === code && error.source?.pointer === pointer),
        `${JSON.stringify(body)} -> ${JSON.stringify(res.json.errors)}`,
      );
    }
  });

  it('answers 400 to malformed JSON and 415 to a wrong content type', async () => {
    const malformed = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json.errors[0].code, 'malformedJson');
    const wrongType = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(wrongType.statusCode, 415);
    assert.equal(wrongType.json.errors[0].code, 'unsupportedMediaType');
  });

  it('accepts the JSON:API media type for bodies', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: JSON.stringify({ email: 'jsonapi@example.test', password: strongPassword }),
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    assert.equal(res.statusCode, 201);
  });

  it('logs in by e-mail or username; unknown account and wrong password answer alike', async () => {
    const user = await createUser(t, { username: 'loginuser' });
    const byEmail = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email.toUpperCase(), password: strongPassword },
    });
    assert.equal(byEmail.statusCode, 200);
    assert.equal(byEmail.json.included[0].id, user.id);
    const byUsername = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: 'LoginUser', password: strongPassword },
    });
    assert.equal(byUsername.statusCode, 200);
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: 'loginuser', password: 'wrong password 1' },
    });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: 'nobody-here', password: 'wrong password 1' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.deepEqual(wrong.json, unknown.json);
  });

  it("answers a banned account's right password exactly like a wrong one (no password oracle)", async () => {
    const user = await createUser(t);
    await updateUserRow(t, user.id, { bannedAt: t.clock.now() });
    const attempt = (password: string) =>
      t.request({ method: 'POST', url: '/api/auth/login', body: { email: user.email, password } });
    const right = await attempt(strongPassword);
    const wrong = await attempt('wrong password 1');
    assert.equal(right.statusCode, 401);
    assert.equal(right.json.errors[0].code, 'invalidCredentials');
    assert.deepEqual(right.json, wrong.json);
    assert.equal(right.headers['www-authenticate'], wrong.headers['www-authenticate']);
    // A session that still exists learns of the ban.
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
    assert.equal(me.statusCode, 403);
    assert.equal(me.json.errors[0].code, 'accountBanned');
  });
});

describe('sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const login = async (email: string, userAgent: string) =>
    (
      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email, password: strongPassword },
        headers: { 'user-agent': userAgent },
      })
    ).json.data;

  it('refuses user routes without a valid token, with WWW-Authenticate', async () => {
    for (const token of [undefined, 'tms_not-a-real-token']) {
      const res = await t.request({ method: 'GET', url: '/api/auth/sessions', token });
      assert.equal(res.statusCode, 401);
      assert.match(res.headers['www-authenticate'] as string, /^Bearer/);
      assert.equal(res.json.errors[0].code, 'unauthenticated');
    }
  });

  it('lists my sessions newest first with the current one marked, and revoking one kills its token at once', async () => {
    const user = await createUser(t);
    t.clock.advanceMinutes(1);
    const phone = await login(user.email, 'Phone/1.0');
    t.clock.advanceMinutes(1);
    const laptop = await login(user.email, 'Laptop/2.0');
    const list = await t.request({ method: 'GET', url: '/api/auth/sessions', token: laptop.attributes.accessToken });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json.data.map((s: any) => [s.id, s.attributes.current, s.attributes.userAgent]),
      [
        [laptop.id, true, 'Laptop/2.0'],
        [phone.id, false, 'Phone/1.0'],
        [user.sessionId, false, factoryUserAgent],
      ],
    );
    assert.equal(list.json.meta.limit, 20);

    const other = await createUser(t);
    const foreign = await t.request({ method: 'DELETE', url: `/api/auth/sessions/${phone.id}`, token: other.token });
    assert.equal(foreign.statusCode, 404, "another user's session is not visible");
    const invalid = await t.request({
      method: 'DELETE',
      url: '/api/auth/sessions/nope',
      token: laptop.attributes.accessToken,
    });
    assert.equal(invalid.statusCode, 422);

    const revoke = await t.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${phone.id}`,
      token: laptop.attributes.accessToken,
    });
    assert.equal(revoke.statusCode, 204);
    assert.equal(revoke.body, '');
    const dead = await t.request({ method: 'GET', url: '/api/auth/me', token: phone.attributes.accessToken });
    assert.equal(dead.statusCode, 401);
  });

  it('pages the session list with cursors', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 4; i++) {
      t.clock.advanceMinutes(1);
      await login(user.email, `Device ${i}`);
    }
    const first = await t.request({ method: 'GET', url: '/api/auth/sessions?limit=2', token: user.token });
    assert.equal(first.json.data.length, 2);
    assert.equal(first.json.links.prev, null);
    const second = await t.request({ method: 'GET', url: first.json.links.next, token: user.token });
    const third = await t.request({ method: 'GET', url: second.json.links.next, token: user.token });
    const seen = [...first.json.data, ...second.json.data, ...third.json.data].map((s: any) => s.attributes.userAgent);
    // The factory session was used minutes after its creation, so it shows the user agent of that use.
    assert.deepEqual(seen, ['Device 3', 'Device 2', 'Device 1', 'Device 0', 'lightMyRequest']);
    assert.equal(third.json.links.next, null);
    const back = await t.request({ method: 'GET', url: second.json.links.prev, token: user.token });
    assert.deepEqual(
      back.json.data.map((s: any) => s.attributes.userAgent),
      ['Device 3', 'Device 2'],
    );
    const bad = await t.request({ method: 'GET', url: '/api/auth/sessions?cursor=%%%', token: user.token });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json.errors[0].source.parameter, 'cursor');
  });

  it('logout ends the current session; logout-all ends every one', async () => {
    const user = await createUser(t);
    const a = await login(user.email, 'A');
    const b = await login(user.email, 'B');
    const out = await t.request({ method: 'POST', url: '/api/auth/logout', token: a.attributes.accessToken });
    assert.equal(out.statusCode, 204);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: a.attributes.accessToken })).statusCode,
      401,
    );
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: b.attributes.accessToken })).statusCode,
      200,
    );
    const all = await t.request({ method: 'POST', url: '/api/auth/logout-all', token: b.attributes.accessToken });
    assert.equal(all.statusCode, 200);
    assert.equal(all.json.data.attributes.ended, 2);
    for (const token of [b.attributes.accessToken, user.token]) {
      assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode, 401);
    }
  });

  it('expires a session after SESSION_TTL_DAYS without use', async () => {
    const user = await createUser(t);
    t.clock.advance(31 * 86_400_000);
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 401);
  });
});
