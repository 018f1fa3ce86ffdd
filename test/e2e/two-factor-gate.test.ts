/**
 * No way in skips two-factor authentication. Every route that answers a session token (an
 * `accessToken` in its declared answer) or a web session (a `sessions` resource as its `data`, the
 * answer of the routes that set the `tm_session` cookie) is found by walking the registered routes'
 * declared answers; each must have a scenario here proving that, for an account with two-factor on,
 * the right first factor answers 401 twoFactorRequired with no token, no cookie and no new session (or
 * why it cannot concern such an account). A census of the source's session-answering calls catches a
 * route that would answer a session without declaring it. A route added later fails this test until
 * it has its scenario.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { createTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../helpers/factories.ts';
import { enableTwoFactor, type TwoFactorDevice } from '../helpers/two-factor.ts';
import { type IdentityProviders, startIdentityProviders, testClientIds } from '../support/identity-providers.ts';

const fromSite = { origin: 'http://localhost:80', accept: 'application/json' };

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  const?: unknown;
}

const mentionsAccessToken = (schema: JsonSchema | undefined): boolean =>
  schema !== undefined &&
  ('accessToken' in (schema.properties ?? {}) ||
    Object.values(schema.properties ?? {}).some(mentionsAccessToken) ||
    mentionsAccessToken(schema.items) ||
    [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].some(mentionsAccessToken));

/** A route answering a session: a token anywhere in its answer, or one `sessions` resource as its data. */
function answersSession(success: unknown): boolean {
  const schema = (success as { schema?: JsonSchema } | undefined)?.schema;
  return mentionsAccessToken(schema) || schema?.properties?.data?.properties?.type?.const === 'sessions';
}

/** Where the source answers a session, by call: a route added with one of these must be listed below. */
const sessionAnsweringCalls = ['presentNewSession(', 'setSessionCookie(', 'presentWebSession('];
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('every way in passes two-factor authentication', () => {
  let t: TestApp;
  let providers: IdentityProviders;
  let user: TestUser;
  let device: TwoFactorDevice;
  const subjects = { google: 'gate-google-1', apple: 'gate-apple-1', facebook: 'gate-facebook-1' };

  const credentialOf = async (provider: 'google' | 'apple' | 'facebook') => {
    if (provider === 'facebook')
      return { accessToken: providers.facebook.issue({ userId: subjects.facebook, email: user.email }) };
    const aud = provider === 'google' ? testClientIds.google : testClientIds.apple;
    const idToken = await providers[provider].sign(
      { sub: subjects[provider], aud, email: user.email, email_verified: true },
      { now: t.clock.now() },
    );
    return { idToken };
  };

  before(async () => {
    providers = await startIdentityProviders();
    t = await createTestApp({ env: providers.env });
    user = await createUser(t);
    for (const provider of ['google', 'apple', 'facebook'] as const) {
      const linked = await t.request({
        method: 'POST',
        url: `/api/users/me/oauth/${provider}`,
        token: user.token,
        body: await credentialOf(provider),
      });
      assert.equal(linked.statusCode, 201, linked.body);
    }
    device = await enableTwoFactor(t, user.token);
  });
  after(async () => {
    await t.close();
    await providers.close();
  });

  const sessionIds = async () =>
    (await t.request({ method: 'GET', url: '/api/auth/sessions?limit=100', token: user.token })).json.data.map(
      (session: { id: string }) => session.id,
    );
  /** The right first factor, refused for want of the second: no token, no cookie, no session. */
  async function assertChallenged(send: () => Promise<TestResponse>): Promise<string> {
    const before = await sessionIds();
    const res = await send();
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json.errors[0].code, 'twoFactorRequired');
    assert.match(res.json.errors[0].meta.ticket, /^tft_/);
    assert.equal(res.body.includes('accessToken'), false);
    const cookies = [res.headers['set-cookie'] ?? []].flat().join('\n');
    assert.doesNotMatch(cookies, /tm_session=[^;]/, 'no session cookie');
    assert.deepEqual(await sessionIds(), before, 'no session opened');
    return res.json.errors[0].meta.ticket;
  }

  const password =
    (url: string, headers: Record<string, string> = {}) =>
    async () => {
      await assertChallenged(() =>
        t.request({ method: 'POST', url, headers, body: { login: user.username, password: strongPassword } }),
      );
    };
  const provider =
    (prefix: string, headers: Record<string, string> = {}) =>
    async () => {
      for (const name of ['google', 'apple', 'facebook'] as const) {
        const body = await credentialOf(name);
        await assertChallenged(() => t.request({ method: 'POST', url: `${prefix}/${name}`, headers, body }));
      }
    };
  /** A completion route: nothing without a valid ticket and a right code; a session with both. */
  const completion =
    (url: string, headers: Record<string, string> = {}) =>
    async () => {
      const post = (body: unknown) => t.request({ method: 'POST', url, headers, body });
      const before = await sessionIds();
      assert.equal((await post({ code: device.code() })).statusCode, 422, 'no ticket');
      assert.equal((await post({ ticket: 'tft_forged.x', code: device.code() })).statusCode, 401, 'a forged ticket');
      const ticket = await assertChallenged(() =>
        t.request({ method: 'POST', url: '/api/auth/login', body: { login: user.username, password: strongPassword } }),
      );
      assert.equal((await post({ ticket })).statusCode, 422, 'no code');
      assert.equal((await post({ ticket, code: '000000' === device.code() ? '111111' : '000000' })).statusCode, 422);
      assert.deepEqual(await sessionIds(), before, 'nothing opened a session');
      t.clock.advance(30_000);
      const done = await post({ ticket, code: device.code() });
      assert.equal(done.statusCode, 200, done.body);
    };

  /** Every route answering a session, and how it is proven to refuse to skip the second factor. */
  const scenarios: Record<string, () => Promise<void>> = {
    'POST /api/auth/login': password('/api/auth/login'),
    'POST /login': password('/login', fromSite),
    'POST /api/auth/oauth/{provider}': provider('/api/auth/oauth'),
    'POST /auth/oauth/{provider}': provider('/auth/oauth', fromSite),
    'POST /api/auth/two-factor': completion('/api/auth/two-factor'),
    'POST /login/two-factor': completion('/login/two-factor', fromSite),
    // Opens a new account, which cannot have two-factor on yet; its session still goes through
    // SessionsService.create, the gate of every other sign-in.
    'POST /api/auth/register': async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/register',
        body: { email: `gate-new-${Date.now()}@example.test`, password: strongPassword },
      });
      assert.equal(res.statusCode, 201, res.body);
      const status = await t.request({
        method: 'GET',
        url: '/api/users/me/two-factor',
        token: res.json.data.attributes.accessToken,
      });
      assert.equal(status.json.data.attributes.enabled, false);
    },
  };

  it('finds every route answering a session, and each has its scenario', async () => {
    const { routes, app } = await buildApp(t.deps, { logger: false });
    await app.close();
    const found = routes
      .filter((route) => answersSession(route.success))
      .map((route) => `${route.method} ${route.path}`);
    assert.ok(found.length >= 6, `found only ${found.join(', ')}`);
    assert.deepEqual(
      found.filter((key) => !(key in scenarios)),
      [],
      'routes answering a session without a scenario proving they pass two-factor authentication',
    );
    assert.deepEqual(
      Object.keys(scenarios).filter((key) => !found.includes(key)),
      [],
      'scenarios of routes that no longer answer a session',
    );
  });

  it('counts the calls that answer a session in the source: one per route of the scenarios', () => {
    const root = new URL('../../src/', import.meta.url).pathname;
    const calls: string[] = [];
    for (const file of sourceFiles(root)) {
      const text = readFileSync(file, 'utf8');
      for (const call of sessionAnsweringCalls) {
        const count = text.split(call).length - 1 - (text.includes(`function ${call}`) ? 1 : 0);
        for (let index = 0; index < count; index += 1) calls.push(`${relative(root, file)} ${call}`);
      }
    }
    // presentWebSession and presentNewSession answer the document, setSessionCookie sets the cookie:
    // each route of the scenarios above has its calls here, and a new call needs a new scenario.
    assert.deepEqual(calls.sort(), [
      'areas/accounts/auth.routes.ts presentNewSession(',
      'areas/accounts/auth.routes.ts presentNewSession(',
      'areas/accounts/two-factor.routes.ts presentNewSession(',
      'areas/identities/identities.routes.ts presentNewSession(',
      'areas/web/sign-in/sign-in.routes.ts presentWebSession(',
      'areas/web/sign-in/sign-in.routes.ts presentWebSession(',
      'areas/web/sign-in/sign-in.routes.ts presentWebSession(',
      'areas/web/sign-in/sign-in.routes.ts setSessionCookie(',
      'areas/web/sign-in/sign-in.routes.ts setSessionCookie(',
      'areas/web/sign-in/sign-in.routes.ts setSessionCookie(',
    ]);
  });

  for (const [key, scenario] of Object.entries(scenarios)) {
    it(`${key} refuses to skip the second factor`, scenario);
  }

  it('a passkey that did not verify its user is challenged; one that did gives both factors', async () => {
    const { sessions } = t.services.areas.accounts;
    const client = { ip: '127.0.0.1', userAgent: 'lightMyRequest' };
    const before = await sessionIds();
    await assert.rejects(
      sessions.create(user.user, client, 'passkey', { userVerified: false }),
      (error: { code?: string }) => error.code === 'twoFactorRequired',
    );
    await assert.rejects(
      sessions.create(user.user, client, 'passkey'),
      (error: { code?: string }) => error.code === 'twoFactorRequired',
    );
    assert.deepEqual(await sessionIds(), before);
    const { session } = await sessions.create(user.user, client, 'passkey', { userVerified: true });
    const listed = await t.request({ method: 'GET', url: '/api/auth/sessions?limit=100', token: user.token });
    const opened = listed.json.data.find((row: { id: string }) => row.id === session.id);
    assert.equal(opened.attributes.signInMethod, 'passkey');
    assert.equal(opened.attributes.secondFactor, 'user-verification');
  });

  it('a provider sign-in completed with a code records both the provider and the code', async () => {
    const ticket = await assertChallenged(async () =>
      t.request({ method: 'POST', url: '/api/auth/oauth/google', body: await credentialOf('google') }),
    );
    t.clock.advance(30_000);
    const done = await t.request({
      method: 'POST',
      url: '/api/auth/two-factor',
      body: { ticket, code: device.code() },
    });
    assert.equal(done.statusCode, 200, done.body);
    const listed = await t.request({ method: 'GET', url: '/api/auth/sessions?limit=100', token: user.token });
    const opened = listed.json.data.find((row: { id: string }) => row.id === done.json.data.id);
    assert.deepEqual([opened.attributes.signInMethod, opened.attributes.secondFactor], ['google', 'totp']);
  });
});
