import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, updateUserRow } from '../../../test/helpers/factories.ts';
import { startAppWithSmtpSink } from '../../../test/helpers/smtp-app.ts';
import { type SmtpSink, smtpMailer, startSmtpSink } from '../../../test/support/smtp-sink.ts';

const tokenIn = (text: string, kind: 'confirm' | 'reset') => {
  const match = new RegExp(`/login\\?${kind}=([A-Za-z0-9_-]+)`).exec(text);
  assert.ok(match, `no ${kind} link in:\n${text}`);
  return match[1]!;
};

describe('account mail through a real SMTP server', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let close: () => Promise<void>;
  before(async () => {
    ({ t, sink, close } = await startAppWithSmtpSink());
  });
  after(() => close());
  beforeEach(() => sink.clear());

  // Mails leave in the background, so a test waits for the very mail it expects.
  const mailTo = (email: string, subject: string) =>
    sink.waitForMessage((message) => message.to.includes(email) && message.subject === subject);

  it('sends a confirmation mail at registration whose token confirms the address exactly once', async () => {
    const email = 'smtp-confirm@example.test';
    const register = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: strongPassword, nickname: 'Zoé' },
    });
    assert.equal(register.statusCode, 201);
    const token = register.json.data.attributes.accessToken;

    const mail = await mailTo(email, 'Confirm your e-mail address');
    assert.match(mail.text, /Hello Zoé,/);
    assert.ok(mail.text.includes(`${t.deps.config.publicUrl}/login?confirm=`));
    const confirmToken = tokenIn(mail.text, 'confirm');
    assert.ok(mail.text.includes(`Code for the app: ${confirmToken}`), 'the raw token is in the text for apps');
    assert.ok(mail.html.includes(`href="${t.deps.config.publicUrl}/login?confirm=${confirmToken}"`));

    const before = await t.request({ method: 'GET', url: '/api/auth/me', token });
    assert.equal(before.json.data.attributes.emailConfirmed, false);
    const confirm = await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token: confirmToken } });
    assert.equal(confirm.statusCode, 204);
    const ended = await t.request({ method: 'GET', url: '/api/auth/me', token });
    assert.equal(ended.statusCode, 401, "the registration's session ended with the confirmation");
    const signedIn = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email, password: strongPassword },
    });
    assert.equal(signedIn.json.included[0].attributes.emailConfirmed, true);

    const again = await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token: confirmToken } });
    assert.equal(again.statusCode, 422);
    assert.equal(again.json.errors[0].code, 'tokenUsed');
    assert.equal(again.json.errors[0].source.pointer, '/token');
  });

  it('sends a reset mail whose token sets a new password once and ends every session', async () => {
    const user = await createUser(t, { email: 'smtp-reset@example.test' });
    const second = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: strongPassword },
    });
    sink.clear();
    const forgot = await t.request({
      method: 'POST',
      url: '/api/auth/forgot-password',
      body: { email: 'SMTP-Reset@example.test' },
    });
    assert.equal(forgot.statusCode, 202);
    assert.equal(forgot.body, '');
    const mail = await mailTo(user.email, 'Reset your password');
    const resetToken = tokenIn(mail.text, 'reset');

    const newPassword = 'a brand new secret 7';
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token: resetToken, password: newPassword },
    });
    assert.equal(reset.statusCode, 204);
    for (const token of [user.token, second.json.data.attributes.accessToken]) {
      assert.equal(
        (await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode,
        401,
        'every session ended',
      );
    }
    const oldLogin = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: strongPassword },
    });
    assert.equal(oldLogin.statusCode, 401);
    const newLogin = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: newPassword },
    });
    assert.equal(newLogin.statusCode, 200);
    assert.equal(newLogin.json.included[0].attributes.emailConfirmed, true, 'the reset link proved the address');

    const reuse = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token: resetToken, password: 'yet another one 8' },
    });
    assert.equal(reuse.statusCode, 422);
    assert.equal(reuse.json.errors[0].code, 'tokenUsed');
    const stillNew = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: newPassword },
    });
    assert.equal(stillNew.statusCode, 200);
  });

  it('writes the mails in French for Accept-Language: fr-FR', async () => {
    const email = 'smtp-fr@example.test';
    const headers = { 'accept-language': 'fr-FR,fr;q=0.9' };
    await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: strongPassword, username: 'amelie' },
      headers,
    });
    const confirm = await mailTo(email, 'Confirmez votre adresse e-mail');
    assert.match(confirm.text, /Bonjour amelie,/);
    assert.match(confirm.text, /expire dans 48 heures/);
    sink.clear();
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email }, headers });
    const reset = await mailTo(email, 'Réinitialisez votre mot de passe');
    assert.match(reset.html, /<html lang="fr">/);
  });

  it('still answers 201 and 202 when the mail server is down', async () => {
    const down = await startSmtpSink();
    const url = down.url;
    await down.close();
    const failing = smtpMailer(url);
    const broken = await createTestApp({ deps: { mailer: failing } });
    try {
      const register = await broken.request({
        method: 'POST',
        url: '/api/auth/register',
        body: { email: 'no-smtp@example.test', password: strongPassword },
      });
      assert.equal(register.statusCode, 201, 'the account exists; the mail can be asked for again');
      const forgot = await broken.request({
        method: 'POST',
        url: '/api/auth/forgot-password',
        body: { email: 'no-smtp@example.test' },
      });
      assert.equal(forgot.statusCode, 202);
    } finally {
      await broken.close();
    }
  });

  it('escapes user-given values in the HTML part', async () => {
    const email = 'smtp-escape@example.test';
    await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: strongPassword, nickname: '<b>Tom & "Jerry"</b>' },
    });
    const mail = await mailTo(email, 'Confirm your e-mail address');
    assert.ok(mail.html.includes('Hello &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;,'), mail.html);
    assert.ok(!mail.html.includes('<b>Tom'));
    assert.ok(mail.text.includes('Hello <b>Tom & "Jerry"</b>,'), 'the text part stays plain');
  });
});

describe('e-mailed tokens and requests', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  // Mail requests are answered first and worked after the answer: wait for that work before reading mail.
  const mailsHandedOver = () => t.services.areas.accounts.mailFlows.drain();
  const lastToken = async (email: string, kind: 'confirm' | 'reset') => {
    await mailsHandedOver();
    return tokenIn(t.mail.last(email)!.text, kind);
  };

  it('answers 422 invalidToken to an unknown token and 422 with a pointer to a missing one', async () => {
    for (const url of ['/api/auth/confirm-email', '/api/auth/reset-password']) {
      const unknown = await t.request({
        method: 'POST',
        url,
        body: { token: 'tmc_not-a-token', ...(url.includes('reset') ? { password: strongPassword } : {}) },
      });
      assert.equal(unknown.statusCode, 422, url);
      assert.equal(unknown.json.errors[0].code, 'invalidToken');
      assert.equal(unknown.json.errors[0].source.pointer, '/token');
      const missing = await t.request({ method: 'POST', url, body: {} });
      assert.equal(missing.statusCode, 422);
      assert.ok(missing.json.errors.some((e: any) => e.code === 'validationFailed' && e.source.pointer === '/token'));
    }
    const confirmToken = await lastToken((await createUser(t)).email, 'confirm');
    const wrongPurpose = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token: confirmToken, password: strongPassword },
    });
    assert.equal(wrongPurpose.json.errors[0].code, 'invalidToken', 'a confirmation token cannot reset a password');
  });

  it('answers 410 tokenExpired after 48 hours (confirmation) and 1 hour (reset)', async () => {
    const user = await createUser(t);
    const confirmToken = await lastToken(user.email, 'confirm');
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    const resetToken = await lastToken(user.email, 'reset');
    t.clock.advanceMinutes(59);
    const early = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token: resetToken, password: 'short' },
    });
    assert.equal(
      early.json.errors[0].code,
      'weakPassword',
      'at 59 minutes the token still passes; only the weak password fails',
    );
    t.clock.advanceMinutes(2);
    const late = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token: resetToken, password: 'a good new password 1' },
    });
    assert.equal(late.statusCode, 410);
    assert.equal(late.json.errors[0].code, 'tokenExpired');
    t.clock.advanceMinutes(46 * 60); // 47 hours 1 minute after it was sent
    const stillOk = await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token: confirmToken } });
    assert.equal(stillOk.statusCode, 204, 'a confirmation link works for 48 hours');
    const other = await createUser(t);
    const otherToken = await lastToken(other.email, 'confirm');
    t.clock.advanceMinutes(48 * 60 + 1);
    const expired = await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token: otherToken } });
    assert.equal(expired.statusCode, 410);
    assert.equal(expired.json.errors[0].code, 'tokenExpired');
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: other.token })).json.data.attributes.emailConfirmed,
      false,
    );
  });

  it('refuses a weak new password without spending the reset token', async () => {
    const user = await createUser(t);
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    const token = await lastToken(user.email, 'reset');
    const weak = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: 'short' },
    });
    assert.equal(weak.statusCode, 422);
    assert.equal(weak.json.errors[0].code, 'weakPassword');
    assert.equal(weak.json.errors[0].source.pointer, '/password');
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode,
      200,
      'nothing changed',
    );
    const good = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: 'a strong one at last 9' },
    });
    assert.equal(good.statusCode, 204);
  });

  it('answers 202 to forgot and resend whatever the account, mailing only real, eligible accounts', async () => {
    const user = await createUser(t);
    const confirmed = await createUser(t);
    await t.request({
      method: 'POST',
      url: '/api/auth/confirm-email',
      body: { token: await lastToken(confirmed.email, 'confirm') },
    });
    const count = t.mail.sent.length;

    const unknownForgot = await t.request({
      method: 'POST',
      url: '/api/auth/forgot-password',
      body: { email: 'nobody@example.test' },
    });
    const unknownResend = await t.request({
      method: 'POST',
      url: '/api/auth/resend-confirmation',
      body: { email: 'nobody@example.test' },
    });
    const confirmedResend = await t.request({
      method: 'POST',
      url: '/api/auth/resend-confirmation',
      body: { email: confirmed.email },
    });
    for (const res of [unknownForgot, unknownResend, confirmedResend]) {
      assert.equal(res.statusCode, 202);
      assert.equal(res.body, '');
    }
    await mailsHandedOver();
    assert.equal(t.mail.sent.length, count, 'no mail for an unknown or already confirmed address');

    const firstToken = await lastToken(user.email, 'confirm');
    const resend = await t.request({
      method: 'POST',
      url: '/api/auth/resend-confirmation',
      body: { email: user.email },
    });
    assert.equal(resend.statusCode, 202);
    await mailsHandedOver();
    assert.equal(t.mail.sent.length, count + 1);
    assert.notEqual(await lastToken(user.email, 'confirm'), firstToken, 'a new link');

    const banned = await createUser(t);
    await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
    const before = t.mail.sent.length;
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: banned.email } })).statusCode,
      202,
    );
    await mailsHandedOver();
    assert.equal(t.mail.sent.length, before, 'a banned account gets no reset mail');

    const invalid = await t.request({
      method: 'POST',
      url: '/api/auth/forgot-password',
      body: { email: 'not-an-email' },
    });
    assert.equal(invalid.statusCode, 422);
    assert.equal(invalid.json.errors[0].source.pointer, '/email');
  });

  it('a link mailed before a ban or an erasure no longer works (reset and confirm alike)', async () => {
    for (const change of [{ bannedAt: t.clock.now() }, { anonymizedAt: t.clock.now() }]) {
      const user = await createUser(t);
      await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
      const reset = await lastToken(user.email, 'reset');
      await t.request({ method: 'POST', url: '/api/auth/resend-confirmation', body: { email: user.email } });
      const confirm = await lastToken(user.email, 'confirm');
      await updateUserRow(t, user.id, change);
      const resetAfter = await t.request({
        method: 'POST',
        url: '/api/auth/reset-password',
        body: { token: reset, password: 'a strong one at last 9' },
      });
      assert.equal(resetAfter.statusCode, 422, JSON.stringify(change));
      assert.equal(resetAfter.json.errors[0].code, 'invalidToken');
      const confirmAfter = await t.request({
        method: 'POST',
        url: '/api/auth/confirm-email',
        body: { token: confirm },
      });
      assert.equal(confirmAfter.statusCode, 422);
      assert.equal(confirmAfter.json.errors[0].code, 'invalidToken');
    }
  });

  const confirm = (token: string) => t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token } });
  const reset = (token: string, password: string) =>
    t.request({ method: 'POST', url: '/api/auth/reset-password', body: { token, password } });
  const login = (email: string, password: string) =>
    t.request({ method: 'POST', url: '/api/auth/login', body: { email, password } });

  it('every confirmation link sent works until the address is confirmed; then each says it is', async () => {
    const user = await createUser(t);
    const first = await lastToken(user.email, 'confirm');
    t.clock.advanceMinutes(1);
    await t.request({ method: 'POST', url: '/api/auth/resend-confirmation', body: { email: user.email } });
    const second = await lastToken(user.email, 'confirm');
    assert.notEqual(first, second);
    assert.equal((await confirm(first)).statusCode, 204, "the first mail's link, after a second was sent");
    for (const token of [second, first]) {
      const again = await confirm(token);
      assert.equal(again.statusCode, 422);
      assert.equal(again.json.errors[0].code, 'tokenUsed', 'the address is already confirmed');
    }
    const signedIn = await login(user.email, strongPassword);
    assert.equal(signedIn.json.included[0].attributes.emailConfirmed, true);
  });

  it('every reset link sent works until one of them sets a password', async () => {
    const user = await createUser(t);
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    const first = await lastToken(user.email, 'reset');
    t.clock.advanceMinutes(1);
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    const second = await lastToken(user.email, 'reset');
    assert.notEqual(first, second);
    assert.equal((await reset(first, 'the first link works 1')).statusCode, 204);
    for (const token of [second, first]) {
      const again = await reset(token, 'not this one either 2');
      assert.equal(again.statusCode, 422);
      assert.equal(again.json.errors[0].code, 'tokenUsed');
    }
    assert.equal((await login(user.email, 'the first link works 1')).statusCode, 200);
    assert.equal((await login(user.email, 'not this one either 2')).statusCode, 401);
  });

  it('a reset spends the open confirmation links: the address is confirmed', async () => {
    const user = await createUser(t);
    const confirmToken = await lastToken(user.email, 'confirm');
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    assert.equal((await reset(await lastToken(user.email, 'reset'), 'a reset proves it 3')).statusCode, 204);
    const late = await confirm(confirmToken);
    assert.equal(late.statusCode, 422);
    assert.equal(late.json.errors[0].code, 'tokenUsed');
  });

  it("confirming an address someone else registered ends every session of the account, the registrant's too", async () => {
    // Someone registers the owner's address with a password and signs in twice.
    const registrant = await createUser(t);
    const other = await login(registrant.email, strongPassword);
    const sessions = [registrant.token, other.json.data.attributes.accessToken as string];
    const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });
    for (const token of sessions) assert.equal((await me(token)).statusCode, 200);
    const first = await lastToken(registrant.email, 'confirm');
    t.clock.advanceMinutes(1);
    await t.request({ method: 'POST', url: '/api/auth/resend-confirmation', body: { email: registrant.email } });
    const second = await lastToken(registrant.email, 'confirm');
    // The owner of the mailbox follows the mailed link.
    assert.equal((await confirm(first)).statusCode, 204);
    for (const token of sessions) assert.equal((await me(token)).statusCode, 401, 'every session ended');
    // Once the address is confirmed, another link ends nothing.
    const later = (await login(registrant.email, strongPassword)).json.data.attributes.accessToken as string;
    assert.equal((await confirm(second)).json.errors[0].code, 'tokenUsed');
    assert.equal((await me(later)).json.data.attributes.emailConfirmed, true);
  });
});
