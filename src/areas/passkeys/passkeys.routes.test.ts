/**
 * Passkeys end to end with a software authenticator (test/support/software-authenticator.ts: P-256
 * keys, `none` attestation, assertions signed in the test): register after "confirm it is you", sign
 * in with the passkey alone, and every bad response refused with its 4xx, no session and nothing changed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { SoftwareAuthenticator } from '../../../test/support/software-authenticator.ts';

const origin = 'https://travel.example.test';

describe('passkeys', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: origin } });
  });
  after(() => t.close());

  const registrationOptions = async (user: TestUser, body: unknown = {}) => {
    const res = await t.request({ method: 'POST', url: '/api/users/me/passkeys/options', token: user.token, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.attributes.publicKey;
  };
  const postPasskey = (user: TestUser, credential: unknown, name?: string) =>
    t.request({ method: 'POST', url: '/api/users/me/passkeys', token: user.token, body: { name, credential } });
  /** A new passkey of `user` in `authenticator`, registered through the API. */
  const register = async (user: TestUser, authenticator: SoftwareAuthenticator, name?: string) => {
    const res = await postPasskey(user, authenticator.create(await registrationOptions(user)), name);
    assert.equal(res.statusCode, 201, res.body);
    return res.json.data;
  };
  const signInOptions = async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/passkey/options' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.attributes.publicKey;
  };
  const signIn = (credential: unknown) => t.request({ method: 'POST', url: '/api/auth/passkey', body: { credential } });
  const sessionCount = async (user: TestUser) => {
    const res = await t.request({ method: 'GET', url: '/api/auth/sessions?limit=100', token: user.token });
    return res.json.data.length as number;
  };
  const passkeysOf = async (user: TestUser) => {
    const res = await t.request({ method: 'GET', url: '/api/users/me/passkeys', token: user.token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data as { id: string; attributes: Record<string, unknown> }[];
  };

  it('registers a passkey and signs in with it alone: a session marked passkey, a mail each way', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await registrationOptions(user);
    assert.equal(options.rp.id, 'travel.example.test');
    assert.equal(options.authenticatorSelection.residentKey, 'required');
    assert.equal(options.authenticatorSelection.userVerification, 'required');
    assert.equal(options.attestation, 'none');
    assert.deepEqual(
      options.pubKeyCredParams.map((param: { alg: number }) => param.alg),
      [-8, -7, -257],
    );
    const created = await postPasskey(user, authenticator.create(options), 'My laptop');
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json.data.type, 'passkeys');
    assert.equal(created.json.data.attributes.name, 'My laptop');
    assert.equal(created.json.data.attributes.lastUsedAt, null);
    assert.deepEqual(created.json.data.attributes.transports, ['internal']);
    assert.equal(JSON.stringify(created.json).includes('publicKey'), false);
    const added = t.mail.last(user.email);
    assert.match(added?.subject ?? '', /passkey was added/);
    assert.match(added?.text ?? '', /My laptop/);

    const res = await signIn(authenticator.get(await signInOptions()));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.json.included[0].id, user.id);
    const token = res.json.data.attributes.accessToken as string;
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
    assert.equal(me.json.data.id, user.id);
    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions', token });
    const current = sessions.json.data.find((s: { attributes: { current: boolean } }) => s.attributes.current);
    assert.equal(current.attributes.signInMethod, 'passkey');
    const [listed] = await passkeysOf(user);
    assert.equal(listed?.attributes.lastUsedAt, t.clock.now().toISOString().replace('Z', '+00:00'));

    const removed = await t.request({ method: 'DELETE', url: `/api/users/me/passkeys/${listed?.id}`, token });
    assert.equal(removed.statusCode, 204);
    assert.match(t.mail.last(user.email)?.subject ?? '', /passkey was removed/);
    // Gone: it signs in no more.
    const again = await signIn(authenticator.get(await signInOptions()));
    assert.equal(again.statusCode, 401);
    assert.equal(again.json.errors[0].meta.reason, 'credential');
  });

  it('mails in the locale of the request that made the change', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await registrationOptions(user);
    const res = await t.request({
      method: 'POST',
      url: '/api/users/me/passkeys',
      token: user.token,
      headers: { 'accept-language': 'fr-FR' },
      body: { credential: authenticator.create(options) },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.json.data.attributes.name, /^Passkey \d{4}-\d{2}-\d{2}$/);
    assert.match(t.mail.last(user.email)?.subject ?? '', /clé d'accès a été ajoutée/);
  });

  it('asks to confirm it is you: a session older than 10 minutes gives the password, checked', async () => {
    const user = await createUser(t);
    const options = (body: unknown) =>
      t.request({ method: 'POST', url: '/api/users/me/passkeys/options', token: user.token, body });
    t.clock.advance(10 * 60_000 + 1000);
    const stale = await options({});
    assert.equal(stale.statusCode, 403);
    assert.equal(stale.json.errors[0].code, 'reauthenticationRequired');
    const wrong = await options({ password: 'not my password 1' });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json.errors[0].code, 'wrongPassword');
    assert.equal((await options({ password: strongPassword })).statusCode, 200);
    const anonymous = await t.request({ method: 'POST', url: '/api/users/me/passkeys/options', body: {} });
    assert.equal(anonymous.statusCode, 401);
  });

  it('refuses a bad assertion with 401 and opens no session: challenge reused, expired, of another kind', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    await register(user, authenticator);
    const before = await sessionCount(user);

    const assertion = authenticator.get(await signInOptions());
    assert.equal((await signIn(assertion)).statusCode, 200);
    const replay = await signIn(assertion);
    assert.equal(replay.statusCode, 401);
    assert.equal(replay.json.errors[0].code, 'passkeyRejected');
    assert.equal(replay.json.errors[0].meta.reason, 'challenge');

    const late = authenticator.get(await signInOptions());
    t.clock.advance(5 * 60_000 + 1);
    const expired = await signIn(late);
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json.errors[0].meta.reason, 'challenge');

    // A registration challenge is not a sign-in challenge.
    const registrationChallenge = (await registrationOptions(user, { password: strongPassword })).challenge;
    const wrongKind = await signIn(authenticator.get(await signInOptions(), { challenge: registrationChallenge }));
    assert.equal(wrongKind.statusCode, 401);
    assert.equal(wrongKind.json.errors[0].meta.reason, 'challenge');
    const made = await signIn(authenticator.get(await signInOptions(), { challenge: 'bWFkZS11cA' }));
    assert.equal(made.json.errors[0].meta.reason, 'challenge');
    assert.equal(await sessionCount(user), before + 1);
  });

  it('refuses another origin, another relying party, a tampered signature, an unknown credential', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    await register(user, authenticator);
    const before = await sessionCount(user);
    for (const options of [{ origin: 'https://evil.example.test' }, { rpId: 'evil.example.test' }, { tamper: true }]) {
      const res = await signIn(authenticator.get(await signInOptions(), options));
      assert.equal(res.statusCode, 401, JSON.stringify(options));
      assert.equal(res.json.errors[0].code, 'passkeyRejected');
      assert.equal(res.json.errors[0].meta.reason, 'signature');
    }
    const stranger = new SoftwareAuthenticator(origin);
    stranger.create({ rp: { id: 'travel.example.test' }, challenge: 'AA', user: { id: 'AA' } });
    const unknown = await signIn(stranger.get(await signInOptions()));
    assert.equal(unknown.statusCode, 401);
    assert.equal(unknown.json.errors[0].meta.reason, 'credential');
    assert.equal(await sessionCount(user), before);
    const [listed] = await passkeysOf(user);
    assert.equal(listed?.attributes.lastUsedAt, null);
  });

  it('refuses an assertion without user verification (one factor) and leaves the counter as it was', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    await register(user, authenticator);
    const res = await signIn(authenticator.get(await signInOptions(), { userVerified: false }));
    assert.equal(res.statusCode, 401);
    assert.equal(res.json.errors[0].code, 'passkeyUserVerificationRequired');
    const [listed] = await passkeysOf(user);
    assert.equal(listed?.attributes.lastUsedAt, null);
    // The counter did not move: the next assertion (counter 2) is accepted.
    assert.equal((await signIn(authenticator.get(await signInOptions()))).statusCode, 200);
  });

  it('refuses a counter that goes backwards, and logs it; a counter kept at 0 is fine', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    await register(user, authenticator);
    assert.equal((await signIn(authenticator.get(await signInOptions()))).statusCode, 200);
    assert.equal((await signIn(authenticator.get(await signInOptions()))).statusCode, 200);
    const credential = [...authenticator.credentials.values()][0]!;
    credential.signCount = 0; // the next assertion signs 1, below the 2 seen: a clone
    const before = await sessionCount(user);
    const clone = await signIn(authenticator.get(await signInOptions()));
    assert.equal(clone.statusCode, 401);
    assert.equal(clone.json.errors[0].meta.reason, 'counter');
    assert.equal(await sessionCount(user), before);

    const counterless = new SoftwareAuthenticator(origin, { counterStep: 0 });
    await register(user, counterless);
    assert.equal((await signIn(counterless.get(await signInOptions()))).statusCode, 200);
    assert.equal((await signIn(counterless.get(await signInOptions()))).statusCode, 200);
  });

  it('refuses a bad attestation with 422: another account’s challenge, origin, relying party, no user verification', async () => {
    const [user, other] = [await createUser(t), await createUser(t)];
    const authenticator = new SoftwareAuthenticator(origin);
    const othersOptions = await registrationOptions(other);
    const stolen = await postPasskey(user, authenticator.create(othersOptions));
    assert.equal(stolen.statusCode, 422);
    assert.equal(stolen.json.errors[0].code, 'passkeyRegistrationRejected');
    assert.equal(stolen.json.errors[0].meta.reason, 'challenge');
    for (const options of [
      { origin: 'https://evil.example.test' },
      { rpId: 'evil.example.test' },
      { userVerified: false },
    ]) {
      const res = await postPasskey(user, authenticator.create(await registrationOptions(user), options));
      assert.equal(res.statusCode, 422, JSON.stringify(options));
      assert.equal(res.json.errors[0].meta.reason, 'attestation');
    }
    // A sign-in challenge does not register, nor does a spent or expired registration challenge.
    const signInChallenge = (await signInOptions()).challenge;
    const wrongKind = await postPasskey(
      user,
      authenticator.create(await registrationOptions(user), { challenge: signInChallenge }),
    );
    assert.equal(wrongKind.json.errors[0].meta.reason, 'challenge');
    const options = await registrationOptions(user);
    t.clock.advance(5 * 60_000 + 1);
    const expired = await postPasskey(user, authenticator.create(options));
    assert.equal(expired.json.errors[0].meta.reason, 'challenge');
    assert.deepEqual(await passkeysOf(user), []);
    assert.equal(t.mail.sent.filter((mail) => mail.to === user.email && /passkey/.test(mail.subject)).length, 0);
  });

  it('refuses a credential registered twice (409), and a 21st passkey', async () => {
    const [user, other] = [await createUser(t), await createUser(t)];
    const authenticator = new SoftwareAuthenticator(origin);
    const first = authenticator.create(await registrationOptions(user));
    assert.equal((await postPasskey(user, first)).statusCode, 201);
    // The very same answer again: its challenge is spent.
    const replayed = await postPasskey(user, first);
    assert.equal(replayed.statusCode, 422);
    assert.equal(replayed.json.errors[0].meta.reason, 'challenge');
    // The same credential again, with a fresh challenge of the same account or of another one.
    for (const owner of [user, other]) {
      const replayed = authenticator.create(await registrationOptions(owner));
      const res = await postPasskey(owner, {
        ...replayed,
        id: first.id,
        rawId: first.id,
        response: { ...replayed.response, attestationObject: first.response.attestationObject },
      });
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json.errors[0].code, 'passkeyAlreadyRegistered');
    }
    for (let i = 1; i < 20; i += 1) await register(user, authenticator, `Key ${i}`);
    const full = await t.request({
      method: 'POST',
      url: '/api/users/me/passkeys/options',
      token: user.token,
      body: { password: strongPassword },
    });
    assert.equal(full.statusCode, 409);
    assert.equal(full.json.errors[0].code, 'passkeyLimitReached');
    assert.equal(full.json.errors[0].meta.limit, 20);
    const page = await t.request({ method: 'GET', url: '/api/users/me/passkeys?limit=15', token: user.token });
    assert.equal(page.json.data.length, 15);
    const rest = await t.request({ method: 'GET', url: page.json.links.next, token: user.token });
    assert.equal(rest.json.data.length, 5);
    assert.deepEqual(await passkeysOf(other), []);
  });

  it('renames and deletes my passkeys only; anyone else gets 404', async () => {
    const [user, other] = [await createUser(t), await createUser(t)];
    const { id } = await register(user, new SoftwareAuthenticator(origin), 'Phone');
    const rename = (who: TestUser, name: unknown) =>
      t.request({ method: 'PATCH', url: `/api/users/me/passkeys/${id}`, token: who.token, body: { name } });
    const renamed = await rename(user, '  Work phone ');
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json.data.attributes.name, 'Work phone');
    assert.equal((await rename(user, '')).statusCode, 422);
    assert.equal((await rename(user, 'x'.repeat(65))).statusCode, 422);
    assert.equal((await rename(other, 'Mine now')).statusCode, 404);
    const foreignDelete = await t.request({
      method: 'DELETE',
      url: `/api/users/me/passkeys/${id}`,
      token: other.token,
    });
    assert.equal(foreignDelete.statusCode, 404);
    assert.equal((await passkeysOf(user))[0]?.attributes.name, 'Work phone');
    const anonymous = await t.request({ method: 'GET', url: '/api/users/me/passkeys' });
    assert.equal(anonymous.statusCode, 401);
  });

  it('refuses a banned account (403) and malformed bodies (422)', async () => {
    const user = await createUser(t);
    const authenticator = new SoftwareAuthenticator(origin);
    await register(user, authenticator);
    const ban = await t.request({
      method: 'PUT',
      url: `/admin/users/${user.hex}/ban`,
      token: adminToken,
      body: { reason: 'spam everywhere' },
    });
    assert.equal(ban.statusCode, 200, ban.body);
    const banned = await signIn(authenticator.get(await signInOptions()));
    assert.equal(banned.statusCode, 403);
    assert.equal(banned.json.errors[0].code, 'accountBanned');
    const malformed = await t.request({ method: 'POST', url: '/api/auth/passkey', body: { credential: { id: 'x' } } });
    assert.equal(malformed.statusCode, 422);
    const notBase64 = authenticator.get(await signInOptions());
    notBase64.response.clientDataJSON = 'not base64url!';
    assert.equal((await signIn(notBase64)).statusCode, 422);
    const garbage = authenticator.get(await signInOptions());
    garbage.response.clientDataJSON = 'bm90IGpzb24';
    const res = await signIn(garbage);
    assert.equal(res.statusCode, 401);
    assert.equal(res.json.errors[0].meta.reason, 'challenge');
  });
});
