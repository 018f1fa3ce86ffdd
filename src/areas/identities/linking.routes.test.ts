/**
 * Linking identities to an account: POST /api/users/me/oauth/{provider}, GET
 * /api/users/me/oauth-identities, DELETE /api/users/me/oauth/{provider} (never the last way to sign in),
 * and the identities section of the data export.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import type { FacebookGraph } from '../../../test/support/facebook-graph.ts';
import {
  type IdentityProviders,
  startIdentityProviders,
  testClientIds,
} from '../../../test/support/identity-providers.ts';
import type { OidcProvider } from '../../../test/support/oidc-provider.ts';

let subjects = 0;
/** A provider subject not used before in this run. */
function nextSubject(): string {
  subjects += 1;
  return `${Date.now()}${subjects}`;
}

describe('linked identities', () => {
  let t: TestApp;
  let google: OidcProvider;
  let facebook: FacebookGraph;
  let providers: IdentityProviders;
  before(async () => {
    providers = await startIdentityProviders();
    ({ google, facebook } = providers);
    t = await createTestApp({ env: providers.env });
  });
  after(async () => {
    await t.close();
    await providers.close();
  });

  const googleToken = (sub: string, email: string | undefined = `${sub}@gmail.example.test`) =>
    google.sign({ sub, aud: testClientIds.google, email, email_verified: true }, { now: t.clock.now() });
  const link = (user: { token: string }, provider: string, body: unknown) =>
    t.request({ method: 'POST', url: `/api/users/me/oauth/${provider}`, token: user.token, body });
  const unlink = (user: { token: string }, provider: string) =>
    t.request({ method: 'DELETE', url: `/api/users/me/oauth/${provider}`, token: user.token });
  const list = async (user: { token: string }) => {
    const res = await t.request({ method: 'GET', url: '/api/users/me/oauth-identities', token: user.token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json;
  };
  /** An account opened by a Google sign-in: no password. */
  const providerAccount = async (sub = nextSubject()) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/oauth/google',
      body: { idToken: await googleToken(sub) },
    });
    assert.equal(res.statusCode, 201, res.body);
    return { token: res.json.data.attributes.accessToken as string, id: res.json.included[0].id as string, sub };
  };

  /** The token of the newest mailed link of a purpose (`/login?confirm=` or `/login?reset=`) to an address. */
  const mailedToken = async (email: string, purpose: 'confirm' | 'reset') => {
    await t.services.areas.accounts.mailFlows.drain();
    const pattern = new RegExp(`/login\\?${purpose}=([A-Za-z0-9_-]+)`);
    const mail = [...t.mail.sent].reverse().find((sent) => sent.to === email && pattern.test(sent.text));
    assert.ok(mail, `a ${purpose} mail to ${email}`);
    return pattern.exec(mail.text)![1]!;
  };

  /** An account opened by someone's Facebook account claiming the victim's address (never taken as proven). */
  const openedWithFacebook = async (victim: string) => {
    const attacker = facebook.issue({ userId: nextSubject(), email: victim });
    const opened = await t.request({
      method: 'POST',
      url: '/api/auth/oauth/facebook',
      body: { accessToken: attacker },
    });
    assert.equal(opened.statusCode, 201, opened.body);
    return { attacker, session: opened.json.data.attributes.accessToken as string };
  };

  it('pre-hijack: an account opened with an address the provider did not vouch for is lost to whoever proves the mailbox', async () => {
    const victim = `victim${nextSubject()}@example.test`;
    const { attacker } = await openedWithFacebook(victim);
    // The owner of the mailbox takes the account over with a password reset...
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: victim } });
    const token = await mailedToken(victim, 'reset');
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: 'the owner is back 7' },
    });
    assert.equal(reset.statusCode, 204, reset.body);
    // ...and the Facebook identity linked before the address was proven is gone with it.
    const again = await t.request({ method: 'POST', url: '/api/auth/oauth/facebook', body: { accessToken: attacker } });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json.errors[0].code, 'identityEmailInUse');
    const owner = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: victim, password: 'the owner is back 7' },
    });
    assert.equal(owner.statusCode, 200);
    assert.equal((await list({ token: owner.json.data.attributes.accessToken })).data.length, 0);
  });

  it("pre-hijack: when the mailbox's owner confirms the address, the account opener's session ends too", async () => {
    const victim = `confirmed${nextSubject()}@example.test`;
    const { attacker, session } = await openedWithFacebook(victim);
    const me = () => t.request({ method: 'GET', url: '/api/auth/me', token: session });
    assert.equal((await me()).json.data.attributes.emailConfirmed, false);
    // The owner of the mailbox follows the confirmation link mailed to it.
    const token = await mailedToken(victim, 'confirm');
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token } })).statusCode,
      204,
    );
    assert.equal((await me()).statusCode, 401, "the opener's session ended");
    const again = await t.request({ method: 'POST', url: '/api/auth/oauth/facebook', body: { accessToken: attacker } });
    assert.equal(again.statusCode, 409, 'and the identity is unlinked');
  });

  it('a confirmation link keeps the identities that vouched for the address, and drops the others', async () => {
    const bea = await createUser(t);
    const googleSub = nextSubject();
    assert.equal(
      (await link(bea, 'google', { idToken: await googleToken(googleSub, bea.email.toUpperCase()) })).statusCode,
      201,
    );
    const facebookId = nextSubject();
    assert.equal(
      (await link(bea, 'facebook', { accessToken: facebook.issue({ userId: facebookId, email: bea.email }) }))
        .statusCode,
      201,
    );
    const token = await mailedToken(bea.email, 'confirm');
    const confirmed = await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token } });
    assert.ok(confirmed.statusCode < 300, confirmed.body);
    // The confirmation ended her sessions: she signs in again.
    const signedIn = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: bea.email, password: strongPassword },
    });
    const left = (await list({ token: signedIn.json.data.attributes.accessToken })).data.map(
      (identity: { attributes: { provider: string } }) => identity.attributes.provider,
    );
    assert.deepEqual(left, ['google']);
  });

  it('links a verified identity (201), again is 200, and lists it with provider, subject, e-mail and dates', async () => {
    const ana = await createUser(t);
    const sub = nextSubject();
    const res = await link(ana, 'google', { idToken: await googleToken(sub, 'ana.elsewhere@example.test') });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json.data.type, 'oauthIdentities');
    assert.deepEqual(res.json.data.attributes, {
      provider: 'google',
      subject: sub,
      email: 'ana.elsewhere@example.test',
      linkedAt: '2026-11-21T12:00:00.000+00:00',
      lastSignInAt: null,
    });
    const again = await link(ana, 'google', { idToken: await googleToken(sub) });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json.data.id, res.json.data.id);

    t.clock.advanceMinutes(1);
    const facebookId = nextSubject();
    const fb = await link(ana, 'facebook', { accessToken: facebook.issue({ userId: facebookId }) });
    assert.equal(fb.statusCode, 201, fb.body);
    const listed = await list(ana);
    assert.deepEqual(
      listed.data.map((row: { attributes: { provider: string; subject: string } }) => [
        row.attributes.provider,
        row.attributes.subject,
      ]),
      [
        ['google', sub],
        ['facebook', facebookId],
      ],
    );
    assert.deepEqual(listed.meta, { total: 2, hasPassword: true });
    // The linked identity signs in to the account from now on (even with another e-mail).
    const signedIn = await t.request({
      method: 'POST',
      url: '/api/auth/oauth/facebook',
      body: { accessToken: facebook.issue({ userId: facebookId, email: 'other@example.test' }) },
    });
    assert.equal(signedIn.statusCode, 200, signedIn.body);
    assert.equal(signedIn.json.included[0].id, ana.id);
    const after = await list(ana);
    assert.equal(after.data[1].attributes.lastSignInAt, '2026-11-21T12:01:00.000+00:00');
    assert.equal(after.data[1].attributes.email, 'other@example.test');
  });

  it('refuses an identity linked to another account (409) and a second identity of a provider (409)', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    const sub = nextSubject();
    assert.equal((await link(ana, 'google', { idToken: await googleToken(sub) })).statusCode, 201);
    const elsewhere = await link(bob, 'google', { idToken: await googleToken(sub) });
    assert.equal(elsewhere.statusCode, 409);
    assert.equal(elsewhere.json.errors[0].code, 'identityLinkedElsewhere');
    const second = await link(ana, 'google', { idToken: await googleToken(nextSubject()) });
    assert.equal(second.statusCode, 409);
    assert.equal(second.json.errors[0].code, 'providerAlreadyLinked');
    assert.equal((await list(bob)).meta.total, 0);
  });

  it('checks the credential as sign-in does: bad tokens 401, unknown provider 404, no token 401 unauthenticated', async () => {
    const ana = await createUser(t);
    const foreign = await google.sign(
      { sub: nextSubject(), aud: testClientIds.google },
      { key: 'foreign', now: t.clock.now() },
    );
    const bad = await link(ana, 'google', { idToken: foreign });
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.json.errors[0].code, 'invalidProviderToken');
    assert.equal((await link(ana, 'myspace', { idToken: 'x' })).statusCode, 404);
    const anonymous = await t.request({ method: 'POST', url: '/api/users/me/oauth/google', body: { idToken: 'x' } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json.errors[0].code, 'unauthenticated');
    assert.equal((await list(ana)).meta.total, 0);
  });

  it('refuses to unlink the last way to sign in (409 lastSignInMethod), allows it once another exists', async () => {
    const account = await providerAccount();
    assert.deepEqual((await list(account)).meta, { total: 1, hasPassword: false });
    const refused = await unlink(account, 'google');
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json.errors[0].code, 'lastSignInMethod');
    assert.equal((await list(account)).meta.total, 1);

    const fb = await link(account, 'facebook', { accessToken: facebook.issue({ userId: nextSubject() }) });
    assert.equal(fb.statusCode, 201);
    assert.equal((await unlink(account, 'google')).statusCode, 204);
    const left = await list(account);
    assert.deepEqual(
      left.data.map((row: { attributes: { provider: string } }) => row.attributes.provider),
      ['facebook'],
    );
    assert.equal((await unlink(account, 'facebook')).json.errors[0].code, 'lastSignInMethod');
    // The Google identity is free again: it now opens a new account of its own.
    const reopened = await t.request({
      method: 'POST',
      url: '/api/auth/oauth/google',
      body: { idToken: await googleToken(account.sub, `${nextSubject()}@example.test`) },
    });
    assert.equal(reopened.statusCode, 201, reopened.body);
  });

  it('lets an account with a password unlink its only identity; an identity not linked is 404', async () => {
    const ana: TestUser = await createUser(t);
    assert.equal((await link(ana, 'google', { idToken: await googleToken(nextSubject()) })).statusCode, 201);
    assert.equal((await unlink(ana, 'google')).statusCode, 204);
    assert.equal((await unlink(ana, 'google')).statusCode, 404);
    assert.equal((await unlink(ana, 'apple')).statusCode, 404);
    assert.equal((await unlink(ana, 'twitter')).statusCode, 404);
  });

  it('deletes the identities of an account being erased (user.erasing), in the erasure transaction', async () => {
    const ana = await createUser(t);
    assert.equal((await link(ana, 'google', { idToken: await googleToken(nextSubject()) })).statusCode, 201);
    const { transactions, events } = t.services.platform;
    await transactions.run(() => events.publish('user.erasing', { userId: ana.id }));
    assert.equal((await list(ana)).meta.total, 0);
  });

  it('registers an identities section in the data export, with every identity of the user', async () => {
    const ana = await createUser(t);
    const sub = nextSubject();
    await link(ana, 'google', { idToken: await googleToken(sub) });
    const section = t.services.platform.exports.sections().find((candidate) => candidate.name === 'identities');
    assert.ok(section, 'an identities section');
    const rows: Record<string, unknown>[] = [];
    for await (const row of section.rows(ana.id)) rows.push(row);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.provider, 'google');
    assert.equal(rows[0]!.subject, sub);
    const none: unknown[] = [];
    for await (const row of section.rows((await createUser(t)).id)) none.push(row);
    assert.deepEqual(none, []);
  });
});
