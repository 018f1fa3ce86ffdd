/**
 * POST /api/auth/oauth/{provider}: Google and Apple ID tokens verified against a local OIDC provider's
 * JWKS, Facebook access tokens through a local Graph API, and every way a credential is refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import type { FacebookGraph } from '../../../test/support/facebook-graph.ts';
import {
  type IdentityProviders,
  startIdentityProviders,
  testClientIds,
} from '../../../test/support/identity-providers.ts';
import { type OidcProvider, publishedKid } from '../../../test/support/oidc-provider.ts';

const googleClient = testClientIds.google;
const googleAndroidClient = testClientIds.googleAndroid;
const appleClient = testClientIds.apple;

let subjects = 0;
/** A provider subject not used before in this run. */
function nextSubject(): string {
  subjects += 1;
  return `${Date.now()}${subjects}`;
}

describe('sign-in with an identity provider', () => {
  let t: TestApp;
  let google: OidcProvider;
  let apple: OidcProvider;
  let facebook: FacebookGraph;
  let providers: IdentityProviders;
  before(async () => {
    providers = await startIdentityProviders();
    ({ google, apple, facebook } = providers);
    t = await createTestApp({ env: providers.env });
  });
  after(async () => {
    await t.close();
    await providers.close();
  });

  const signIn = (provider: string, body: unknown) =>
    t.request({ method: 'POST', url: `/api/auth/oauth/${provider}`, body });
  const googleToken = (claims: Record<string, unknown> = {}, options: Parameters<OidcProvider['sign']>[1] = {}) =>
    google.sign(
      {
        sub: nextSubject(),
        aud: googleClient,
        email: `g${nextSubject()}@example.test`,
        email_verified: true,
        ...claims,
      },
      { now: t.clock.now(), ...options },
    );
  const expectRefused = async (provider: string, body: unknown, code = 'invalidProviderToken', status = 401) => {
    const res = await signIn(provider, body);
    assert.equal(res.statusCode, status, res.body);
    assert.equal(res.json.errors[0].code, code);
    return res;
  };
  /** How the session a sign-in answered was opened, as the session list shows it. */
  const signInMethodOf = async (signedIn: { json: any }) => {
    const token = signedIn.json.data.attributes.accessToken;
    const list = await t.request({ method: 'GET', url: '/api/auth/sessions', token });
    return list.json.data.find((session: { id: string }) => session.id === signedIn.json.data.id)?.attributes
      .signInMethod;
  };

  describe('Google', () => {
    it('creates an account on a first sign-in (201, like login), confirmed, without username or password', async () => {
      const sub = nextSubject();
      const email = `Ana.${sub}@Example.test`;
      const res = await signIn('google', { idToken: await googleToken({ sub, email }) });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.json.data.type, 'sessions');
      assert.equal(res.json.data.attributes.tokenType, 'Bearer');
      const user = res.json.included[0];
      assert.equal(user.attributes.email, email);
      assert.equal(user.attributes.emailConfirmed, true);
      assert.equal(user.attributes.username, null);
      assert.equal(await signInMethodOf(res), 'google');

      const token = res.json.data.attributes.accessToken;
      const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
      assert.equal(me.statusCode, 200);
      assert.equal(me.json.data.id, user.id);
      // The username is picked later, as for any account without one.
      const named = await t.request({
        method: 'POST',
        url: '/api/users/me/username',
        token,
        body: { username: `ana${sub}`.slice(0, 30) },
      });
      assert.equal(named.statusCode, 200, named.body);
      // The provider vouched for the address: no confirmation mail.
      assert.equal(t.mail.sent.filter((mail) => mail.to === email).length, 0);
      // No password: password login cannot enter it.
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email, password: 'anything at all 1' },
      });
      assert.equal(login.statusCode, 401);

      const again = await signIn('google', { idToken: await googleToken({ sub, email }) });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json.included[0].id, user.id);
      assert.notEqual(again.json.data.id, res.json.data.id, 'a new session');
    });

    it('accepts ES256 tokens and every configured client id as audience', async () => {
      const es = await signIn('google', { idToken: await googleToken({}, { alg: 'ES256' }) });
      assert.equal(es.statusCode, 201, es.body);
      const android = await signIn('google', { idToken: await googleToken({ aud: googleAndroidClient }) });
      assert.equal(android.statusCode, 201, android.body);
    });

    it('opens an unconfirmed account, and mails the confirmation, when the provider does not vouch for the address', async () => {
      const email = `unverified${nextSubject()}@example.test`;
      const res = await signIn('google', { idToken: await googleToken({ email, email_verified: false }) });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json.included[0].attributes.emailConfirmed, false);
      await waitFor('the confirmation mail', () => t.mail.last(email));
    });

    it('refuses a token signed by another key: unknown kid, or a published kid with a foreign key', async () => {
      await expectRefused('google', { idToken: await googleToken({}, { key: 'foreign' }) });
      const published = publishedKid(await googleToken());
      await expectRefused('google', { idToken: await googleToken({}, { key: 'foreign', kid: published }) });
    });

    it('refuses another audience, another issuer, an expired token and a token without subject', async () => {
      await expectRefused('google', { idToken: await googleToken({ aud: 'someone-else.apps.test' }) });
      await expectRefused('google', { idToken: await googleToken({ iss: 'https://evil.test' }) });
      const hourAgo = new Date(t.clock.now().getTime() - 2 * 3600_000);
      await expectRefused('google', { idToken: await googleToken({}, { now: hourAgo }) });
      await expectRefused('google', { idToken: await googleToken({ sub: undefined }) });
    });

    it('refuses alg none, an HMAC token and garbage', async () => {
      const claims = { sub: nextSubject(), aud: googleClient, exp: Math.floor(t.clock.now().getTime() / 1000) + 600 };
      await expectRefused('google', { idToken: google.unsigned(claims) });
      const hmac = await new SignJWT({ ...claims, iss: google.issuer, iat: claims.exp - 600 })
        .setProtectedHeader({ alg: 'HS256', kid: publishedKid(await googleToken()) })
        .sign(new TextEncoder().encode('a shared secret of at least 32 bytes!'));
      await expectRefused('google', { idToken: hmac });
      for (const garbage of ['garbage', 'a.b.c', 'eyJhbGciOiJSUzI1NiJ9.e30.AAAA', '...']) {
        await expectRefused('google', { idToken: garbage });
      }
    });

    it('checks the nonce: required when the token has one, refused when it differs or the token has none', async () => {
      const sub = nextSubject();
      await expectRefused('google', { idToken: await googleToken({ sub, nonce: 'n-1' }) });
      await expectRefused('google', { idToken: await googleToken({ sub, nonce: 'n-1' }), nonce: 'n-2' });
      await expectRefused('google', { idToken: await googleToken({ sub }), nonce: 'n-1' });
      const ok = await signIn('google', { idToken: await googleToken({ sub, nonce: 'n-1' }), nonce: 'n-1' });
      assert.equal(ok.statusCode, 201, ok.body);
    });

    it('asks for the credential its provider gives, and refuses unknown fields (422)', async () => {
      const missing = await expectRefused('google', { accessToken: 'x' }, 'validationFailed', 422);
      assert.equal(missing.json.errors[0].source.pointer, '/idToken');
      await expectRefused('google', { idToken: 'x', extra: 1 }, 'validationFailed', 422);
      await expectRefused('google', { idToken: '' }, 'validationFailed', 422);
    });

    it('picks up rotated keys: a token with a new kid refetches the JWKS', async () => {
      await signIn('google', { idToken: await googleToken() });
      const fetches = google.jwksRequests;
      await google.rotate();
      t.clock.advance(10_000); // past the refetch cool-down
      // Three sign-ins at once with the new keys share one fetch.
      const tokens = await Promise.all([googleToken({}, { alg: 'ES256' }), googleToken(), googleToken()]);
      const answers = await Promise.all(tokens.map((idToken) => signIn('google', { idToken })));
      assert.deepEqual(
        answers.map((res) => res.statusCode),
        [201, 201, 201],
      );
      assert.equal(google.jwksRequests, fetches + 1);
      // Cached again: the next token needs no fetch.
      assert.equal((await signIn('google', { idToken: await googleToken() })).statusCode, 201);
      assert.equal(google.jwksRequests, fetches + 1);
    });

    it('refetches for unknown kids at most once per cool-down, whatever the tokens', async () => {
      t.clock.advance(10_000);
      const fetches = google.jwksRequests;
      for (let i = 0; i < 3; i += 1)
        await expectRefused('google', { idToken: await googleToken({}, { key: 'foreign' }) });
      assert.equal(google.jwksRequests, fetches + 1);
      // While the provider fails too: the failed attempt starts the cool-down as a success would.
      t.clock.advance(10_000);
      google.mode = 'error';
      const failing = google.jwksRequests;
      await expectRefused('google', { idToken: await googleToken({}, { key: 'foreign' }) }, 'providerUnavailable', 502);
      for (let i = 0; i < 3; i += 1)
        await expectRefused('google', { idToken: await googleToken({}, { key: 'foreign' }) });
      google.mode = 'ok';
      assert.equal(google.jwksRequests, failing + 1);
    });

    it('answers 502 providerUnavailable, without hanging, when the JWKS times out or fails', {
      timeout: 60_000,
    }, async () => {
      google.mode = 'hang';
      t.clock.advanceMinutes(16); // the cached key set is older than its maximum age
      const hung = await expectRefused('google', { idToken: await googleToken() }, 'providerUnavailable', 502);
      assert.equal(hung.json.errors[0].meta.provider, 'google');
      google.mode = 'error';
      await expectRefused('google', { idToken: await googleToken() }, 'providerUnavailable', 502);
      google.mode = 'ok';
      assert.equal((await signIn('google', { idToken: await googleToken() })).statusCode, 201);
    });

    it('never signs into the account that has the e-mail: 409 identityEmailInUse, and nothing is created', async () => {
      const owner = await createUser(t);
      const sub = nextSubject();
      const res = await expectRefused(
        'google',
        { idToken: await googleToken({ sub, email: owner.email.toUpperCase() }) },
        'identityEmailInUse',
        409,
      );
      assert.equal(res.json.errors[0].meta.provider, 'google');
      const identities = await t.request({ method: 'GET', url: '/api/users/me/oauth-identities', token: owner.token });
      assert.deepEqual(identities.json.data, []);
      // The rule: sign in to the account, then link the identity; from then on the identity signs in.
      const linked = await t.request({
        method: 'POST',
        url: '/api/users/me/oauth/google',
        token: owner.token,
        body: { idToken: await googleToken({ sub, email: owner.email }) },
      });
      assert.equal(linked.statusCode, 201, linked.body);
      const signedIn = await signIn('google', { idToken: await googleToken({ sub, email: owner.email }) });
      assert.equal(signedIn.statusCode, 200, signedIn.body);
      assert.equal(signedIn.json.included[0].id, owner.id);
    });

    it('gives one account to two first sign-ins of the same person at once', async () => {
      const sub = nextSubject();
      const email = `twice${sub}@example.test`;
      const [a, b] = await Promise.all([
        signIn('google', { idToken: await googleToken({ sub, email }) }),
        signIn('google', { idToken: await googleToken({ sub, email }) }),
      ]);
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 201], `${a.body} ${b.body}`);
      assert.equal(a.json.included[0].id, b.json.included[0].id);
    });

    it('needs an e-mail to open an account (422 identityEmailMissing)', async () => {
      await expectRefused('google', { idToken: await googleToken({ email: undefined }) }, 'identityEmailMissing', 422);
    });

    it('refuses a banned account (403 accountBanned)', async () => {
      const sub = nextSubject();
      const first = await signIn('google', { idToken: await googleToken({ sub }) });
      assert.equal(first.statusCode, 201);
      await updateUserRow(t, first.json.included[0].id, { bannedAt: t.clock.now(), banReason: 'spam' });
      await expectRefused('google', { idToken: await googleToken({ sub }) }, 'accountBanned', 403);
    });

    it('forgets the identity of an erased account: the same person then opens a new account', async () => {
      const sub = nextSubject();
      const email = `erased${sub}@example.test`;
      const first = await signIn('google', { idToken: await googleToken({ sub, email }) });
      assert.equal(first.statusCode, 201);
      const hex = first.json.included[0].attributes.hex;
      const erased = await t.request({ method: 'POST', url: `/admin/users/${hex}/anonymize`, token: adminToken });
      assert.equal(erased.statusCode, 200, erased.body);
      const again = await signIn('google', { idToken: await googleToken({ sub, email }) });
      assert.equal(again.statusCode, 201, again.body);
      assert.notEqual(again.json.included[0].id, first.json.included[0].id);
    });
  });

  describe('Apple', () => {
    const appleToken = (claims: Record<string, unknown> = {}) =>
      apple.sign(
        {
          sub: `001.${nextSubject()}`,
          aud: appleClient,
          email: `a${nextSubject()}@privaterelay.example.test`,
          ...claims,
        },
        { alg: 'ES256', now: t.clock.now() },
      );

    it('signs in with an ID token whose nonce is the SHA-256 of the one given; "true" as a string confirms', async () => {
      const nonce = 'raw-nonce-from-the-app';
      const hashed = createHash('sha256').update(nonce).digest('hex');
      const res = await signIn('apple', {
        idToken: await appleToken({ nonce: hashed, email_verified: 'true' }),
        nonce,
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json.included[0].attributes.emailConfirmed, true);
      await expectRefused('apple', { idToken: await appleToken({ nonce: hashed }), nonce: 'other' });
    });

    it('keeps the known address when a later token carries none', async () => {
      const sub = `001.${nextSubject()}`;
      const email = `kept${nextSubject()}@privaterelay.example.test`;
      const first = await signIn('apple', { idToken: await appleToken({ sub, email }) });
      assert.equal(first.statusCode, 201, first.body);
      const later = await signIn('apple', { idToken: await appleToken({ sub, email: undefined }) });
      assert.equal(later.statusCode, 200, later.body);
      const token = later.json.data.attributes.accessToken;
      const listed = await t.request({ method: 'GET', url: '/api/users/me/oauth-identities', token });
      assert.equal(listed.json.data[0].attributes.email, email);
    });

    it("refuses Google's tokens (another issuer and audience) and tokens for another app", async () => {
      await expectRefused('apple', { idToken: await googleToken() });
      await expectRefused('apple', { idToken: await appleToken({ aud: 'com.example.other' }) });
    });
  });

  describe('Facebook', () => {
    it('signs in with an access token inspected through debug_token; the address is not taken as confirmed', async () => {
      const userId = nextSubject();
      const email = `fb${userId}@example.test`;
      const res = await signIn('facebook', { accessToken: facebook.issue({ userId, email }) });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json.included[0].attributes.email, email);
      assert.equal(res.json.included[0].attributes.emailConfirmed, false);
      assert.equal(await signInMethodOf(res), 'facebook');
      assert.ok(facebook.requests.some((path) => path === '/v24.0/debug_token'));
      const again = await signIn('facebook', { accessToken: facebook.issue({ userId, email }) });
      assert.equal(again.statusCode, 200);
      assert.equal(again.json.included[0].id, res.json.included[0].id);
    });

    it('refuses a token of another app, an expired one, an unknown one; asks for accessToken', async () => {
      await expectRefused('facebook', { accessToken: facebook.issue({ userId: nextSubject(), appId: '999' }) });
      const expired = facebook.issue({ userId: nextSubject(), email: 'x@example.test', expiresAt: new Date(1000) });
      await expectRefused('facebook', { accessToken: expired });
      await expectRefused('facebook', { accessToken: 'EAAnot-a-token' });
      await expectRefused('facebook', { idToken: 'x' }, 'validationFailed', 422);
    });

    it('answers 502 when the Graph API fails or does not answer in time', { timeout: 60_000 }, async () => {
      facebook.mode = 'error';
      await expectRefused('facebook', { accessToken: facebook.issue({ userId: '1' }) }, 'providerUnavailable', 502);
      facebook.mode = 'null';
      await expectRefused('facebook', { accessToken: facebook.issue({ userId: '1' }) }, 'providerUnavailable', 502);
      facebook.mode = 'hang';
      await expectRefused('facebook', { accessToken: facebook.issue({ userId: '1' }) }, 'providerUnavailable', 502);
      facebook.mode = 'ok';
    });
  });

  it('answers 404 for a provider that is not one of the three', async () => {
    for (const provider of ['twitter', 'Google', 'google.com']) {
      await expectRefused(provider, { idToken: 'x' }, 'notFound', 404);
    }
  });
});

describe('sign-in with an unconfigured provider', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers 404 providerNotConfigured for each of the three, on sign-in and linking', async () => {
    const user = await createUser(t);
    for (const provider of ['google', 'apple', 'facebook']) {
      const res = await t.request({ method: 'POST', url: `/api/auth/oauth/${provider}`, body: { idToken: 'x' } });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json.errors[0].code, 'providerNotConfigured');
      const link = await t.request({
        method: 'POST',
        url: `/api/users/me/oauth/${provider}`,
        token: user.token,
        body: { accessToken: 'x' },
      });
      assert.equal(link.json.errors[0].code, 'providerNotConfigured');
    }
  });
});
