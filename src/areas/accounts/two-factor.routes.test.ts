/**
 * Two-factor authentication through the API: enrolment, confirmation, the sign-in challenge and its
 * completion, codes one step either side and never twice, recovery codes, tickets, wrong-code limits,
 * turning it off, new recovery codes, the mails. Codes are computed with otpauth from the secret the
 * enrolment answered; steps and expiries move on the test's ManualClock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { enableTwoFactor, type TwoFactorDevice, totpCode } from '../../../test/helpers/two-factor.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';

describe('two-factor authentication', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const login = (user: TestUser, password = strongPassword) =>
    t.request({ method: 'POST', url: '/api/auth/login', body: { login: user.username, password } });
  const complete = (body: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/auth/two-factor', body });
  const sessionCount = async (user: TestUser) =>
    (await t.request({ method: 'GET', url: '/api/auth/sessions?limit=100', token: user.token })).json.data.length;
  const status = async (user: TestUser) =>
    (await t.request({ method: 'GET', url: '/api/users/me/two-factor', token: user.token })).json.data.attributes;
  /** A right password on an account with two-factor on: the ticket of the challenge. */
  const challenge = async (user: TestUser): Promise<string> => {
    const res = await login(user);
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json.errors[0].code, 'twoFactorRequired');
    return res.json.errors[0].meta.ticket;
  };
  const expectError = (res: { statusCode: number; json: any; body: string }, status: number, code: string) => {
    assert.equal(res.statusCode, status, res.body);
    assert.equal(res.json.errors[0].code, code);
  };

  async function userWithTwoFactor(): Promise<{ user: TestUser; device: TwoFactorDevice }> {
    const user = await createUser(t);
    return { user, device: await enableTwoFactor(t, user.token) };
  }

  it('enrols with a secret and its otpauth URI, and turns on only with a right code', async () => {
    const user = await createUser(t);
    assert.deepEqual(await status(user), { enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
    const enrolled = await t.request({ method: 'POST', url: '/api/users/me/two-factor', token: user.token });
    assert.equal(enrolled.statusCode, 201, enrolled.body);
    assert.equal(enrolled.headers['cache-control'], 'no-store');
    const { secret, uri } = enrolled.json.data.attributes;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    assert.equal(parsed.protocol, 'otpauth:');
    assert.equal(parsed.searchParams.get('secret'), secret);
    assert.match(decodeURIComponent(parsed.pathname), new RegExp(user.email));
    assert.equal((await status(user)).enabled, false, 'not on before a code');
    assert.equal((await login(user)).statusCode, 200, 'signing in is unchanged until confirmed');

    const confirm = (code: string) =>
      t.request({ method: 'POST', url: '/api/users/me/two-factor/confirm', token: user.token, body: { code } });
    const wrong = totpCode(secret, new Date(t.clock.now().getTime() + 5 * 60_000));
    expectError(await confirm(wrong), 422, 'twoFactorCodeInvalid');
    expectError(await confirm('12345'), 422, 'validationFailed');
    expectError(await confirm('abcdef'), 422, 'validationFailed');
    assert.equal((await status(user)).enabled, false, 'a wrong code changes nothing');

    const confirmed = await t.request({
      method: 'POST',
      url: '/api/users/me/two-factor/confirm',
      token: user.token,
      headers: { 'accept-language': 'fr-FR' },
      body: { code: totpCode(secret, t.clock.now()) },
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    const codes: string[] = confirmed.json.data.attributes.recoveryCodes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[0-9a-z]{5}-[0-9a-z]{5}$/);
    const on = await status(user);
    assert.equal(on.enabled, true);
    assert.equal(on.recoveryCodesLeft, 10);
    assert.equal(on.enabledAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    const mail = t.mail.last(user.email)!;
    assert.equal(mail.subject, 'La double authentification est activée', 'in the locale of the request');

    expectError(
      await t.request({ method: 'POST', url: '/api/users/me/two-factor', token: user.token }),
      409,
      'twoFactorAlreadyEnabled',
    );
    expectError(await confirm(totpCode(secret, t.clock.now())), 409, 'twoFactorAlreadyEnabled');
  });

  it('answers a right password with a challenge, and opens the session with a code', async () => {
    const { user, device } = await userWithTwoFactor();
    const before = await sessionCount(user);
    const res = await login(user);
    expectError(res, 401, 'twoFactorRequired');
    assert.equal(res.body.includes('accessToken'), false);
    const { ticket, expiresAt } = res.json.errors[0].meta;
    assert.match(ticket, /^tft_/);
    assert.equal(Date.parse(expiresAt) - t.clock.now().getTime(), 5 * 60_000);
    assert.equal(await sessionCount(user), before, 'no session before the code');

    const done = await complete({ ticket, code: device.code() });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.headers['cache-control'], 'no-store');
    assert.equal(done.json.data.type, 'sessions');
    assert.equal(done.json.included[0].id, user.id);
    const token = done.json.data.attributes.accessToken;
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
    assert.equal(me.statusCode, 200);
    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions', token });
    const opened = sessions.json.data.find((session: { id: string }) => session.id === done.json.data.id);
    assert.equal(opened.attributes.signInMethod, 'password');
    assert.equal(opened.attributes.secondFactor, 'totp');
    const older = sessions.json.data.find((session: { id: string }) => session.id === user.sessionId);
    assert.equal(older.attributes.secondFactor, null);

    // The ticket is spent, and the code too.
    expectError(await complete({ ticket, code: device.code() }), 401, 'twoFactorTicketInvalid');
    expectError(await complete({ ticket: await challenge(user), code: device.code() }), 422, 'twoFactorCodeInvalid');
  });

  it('takes a code one step either side of now, never an older one, and never a step before the last used', async () => {
    const { user, device } = await userWithTwoFactor();
    t.clock.advance(60_000); // away from the step the confirmation used
    const at = (steps: number) => new Date(t.clock.now().getTime() + steps * 30_000);
    expectError(
      await complete({ ticket: await challenge(user), code: device.code(at(-2)) }),
      422,
      'twoFactorCodeInvalid',
    );
    expectError(
      await complete({ ticket: await challenge(user), code: device.code(at(2)) }),
      422,
      'twoFactorCodeInvalid',
    );
    assert.equal((await complete({ ticket: await challenge(user), code: device.code(at(-1)) })).statusCode, 200);
    assert.equal((await complete({ ticket: await challenge(user), code: device.code(at(1)) })).statusCode, 200);
    // The step after now was used: now's code (an earlier step) is refused, though still in the window.
    expectError(await complete({ ticket: await challenge(user), code: device.code() }), 422, 'twoFactorCodeInvalid');
    t.clock.advance(60_000);
    assert.equal((await complete({ ticket: await challenge(user), code: device.code() })).statusCode, 200);
  });

  it('refuses an expired, forged or malformed ticket, a ticket of another account, and bad codes, changing nothing', async () => {
    const { user, device } = await userWithTwoFactor();
    const other = await userWithTwoFactor();
    const before = await sessionCount(user);

    const expired = await challenge(user);
    t.clock.advance(5 * 60_000 + 1);
    expectError(await complete({ ticket: expired, code: device.code() }), 401, 'twoFactorTicketInvalid');

    const ticket = await challenge(user);
    const [claims, signature] = ticket.slice(4).split('.');
    const forged = JSON.parse(Buffer.from(claims!, 'base64url').toString());
    forged.u = other.user.id;
    const forgedTicket = `tft_${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expectError(await complete({ ticket: forgedTicket, code: other.device.code() }), 401, 'twoFactorTicketInvalid');
    expectError(await complete({ ticket: 'tms_not-a-ticket', code: device.code() }), 401, 'twoFactorTicketInvalid');
    // Another account's ticket with this account's code: the code is not the ticket account's.
    const othersTicket = await challenge(other.user);
    expectError(await complete({ ticket: othersTicket, code: device.code() }), 422, 'twoFactorCodeInvalid');

    expectError(await complete({ ticket, code: '12345' }), 422, 'validationFailed');
    expectError(await complete({ ticket, code: '1234567' }), 422, 'validationFailed');
    expectError(await complete({ ticket, code: 'abc123' }), 422, 'validationFailed');
    expectError(await complete({ ticket, code: 123456 }), 422, 'validationFailed');
    expectError(await complete({ ticket, recoveryCode: 'not a code!' }), 422, 'validationFailed');
    expectError(await complete({ ticket }), 422, 'validationFailed');
    expectError(
      await complete({ ticket, code: device.code(), recoveryCode: device.recoveryCodes[0] }),
      422,
      'validationFailed',
    );
    expectError(await complete({ code: device.code() }), 422, 'validationFailed');
    assert.equal(await sessionCount(user), before, 'no session was opened');
    assert.equal((await status(user)).recoveryCodesLeft, 10, 'no recovery code was spent');
    // The ticket that met only bad input still works.
    assert.equal((await complete({ ticket, code: device.code() })).statusCode, 200);
  });

  it('signs in once with each recovery code, and tells the owner', async () => {
    const { user, device } = await userWithTwoFactor();
    const [first, second] = device.recoveryCodes as [string, string];
    const done = await complete({ ticket: await challenge(user), recoveryCode: first.toUpperCase().replace('-', '') });
    assert.equal(done.statusCode, 200, done.body);
    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions', token: user.token });
    const opened = sessions.json.data.find((session: { id: string }) => session.id === done.json.data.id);
    assert.equal(opened.attributes.secondFactor, 'recovery-code');
    const mail = t.mail.sent.find((sent) => sent.to === user.email && sent.subject === 'A recovery code was used');
    assert.ok(mail, 'the owner is told');
    assert.match(mail.text, /You have 9 recovery codes left/);

    expectError(await complete({ ticket: await challenge(user), recoveryCode: first }), 422, 'twoFactorCodeInvalid');
    assert.equal((await complete({ ticket: await challenge(user), recoveryCode: second })).statusCode, 200);
    assert.equal((await status(user)).recoveryCodesLeft, 8);
  });

  it('voids a ticket after 5 wrong codes', async () => {
    const { user, device } = await userWithTwoFactor();
    const ticket = await challenge(user);
    const wrong = device.code(new Date(t.clock.now().getTime() + 10 * 60_000));
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expectError(await complete({ ticket, code: wrong }), 422, 'twoFactorCodeInvalid');
    }
    expectError(await complete({ ticket, code: device.code() }), 401, 'twoFactorTicketInvalid');
    assert.equal((await complete({ ticket: await challenge(user), code: device.code() })).statusCode, 200);
  });

  it('turns off with a code or a recovery code, and tells the owner', async () => {
    const { user, device } = await userWithTwoFactor();
    const disable = (body: unknown) =>
      t.request({ method: 'DELETE', url: '/api/users/me/two-factor', token: user.token, body });
    const wrong = device.code(new Date(t.clock.now().getTime() + 10 * 60_000));
    expectError(await disable({ code: wrong }), 422, 'twoFactorCodeInvalid');
    expectError(await disable({ recoveryCode: 'aaaaa-aaaaa' }), 422, 'twoFactorCodeInvalid');
    expectError(await disable({}), 422, 'validationFailed');
    assert.equal((await status(user)).enabled, true, 'still on');
    const off = await disable({ code: device.code() });
    assert.equal(off.statusCode, 204, off.body);
    assert.deepEqual(await status(user), { enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
    assert.equal(t.mail.last(user.email)!.subject, 'Two-factor authentication is off');
    expectError(await disable({ code: device.code() }), 409, 'twoFactorNotEnabled');
    assert.equal((await login(user)).statusCode, 200, 'a password alone signs in again');

    const again = await userWithTwoFactor();
    const offWithRecovery = await t.request({
      method: 'DELETE',
      url: '/api/users/me/two-factor',
      token: again.user.token,
      body: { recoveryCode: again.device.recoveryCodes[3] },
    });
    assert.equal(offWithRecovery.statusCode, 204, offWithRecovery.body);
  });

  it('makes a new set of recovery codes and voids the old one', async () => {
    const { user, device } = await userWithTwoFactor();
    const renew = (body: unknown) =>
      t.request({ method: 'POST', url: '/api/users/me/two-factor/recovery-codes', token: user.token, body });
    expectError(await renew({ code: '000000' === device.code() ? '111111' : '000000' }), 422, 'twoFactorCodeInvalid');
    const renewed = await renew({ code: device.code() });
    assert.equal(renewed.statusCode, 200, renewed.body);
    const fresh: string[] = renewed.json.data.attributes.recoveryCodes;
    assert.equal(fresh.length, 10);
    expectError(
      await complete({ ticket: await challenge(user), recoveryCode: device.recoveryCodes[0] }),
      422,
      'twoFactorCodeInvalid',
    );
    assert.equal((await complete({ ticket: await challenge(user), recoveryCode: fresh[0] })).statusCode, 200);
    const renewedWithRecovery = await renew({ recoveryCode: fresh[1] });
    assert.equal(renewedWithRecovery.statusCode, 200, renewedWithRecovery.body);
    assert.match(t.mail.last(user.email)!.text, /You have 10 recovery codes left/, 'the mail counts the new set');
    const stranger = await createUser(t);
    expectError(
      await t.request({
        method: 'POST',
        url: '/api/users/me/two-factor/recovery-codes',
        token: stranger.token,
        body: { code: '123456' },
      }),
      409,
      'twoFactorNotEnabled',
    );
  });

  it('stays on through a password reset', async () => {
    const { user, device } = await userWithTwoFactor();
    const forgot = await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    assert.equal(forgot.statusCode, 202);
    const mail = await waitFor('the reset mail', () =>
      t.mail.sent.find((m) => m.to === user.email && /reset=/.test(m.text)),
    );
    const token = /reset=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const newPassword = 'another strong one 9';
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: newPassword },
    });
    assert.equal(reset.statusCode, 204, reset.body);
    const refused = await login(user, newPassword);
    expectError(refused, 401, 'twoFactorRequired');
    const done = await complete({ ticket: refused.json.errors[0].meta.ticket, code: device.code() });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal((await status({ ...user, token: done.json.data.attributes.accessToken })).enabled, true);
  });
});

describe('two-factor wrong-code limit per account (rate limits on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('refuses every code of the account after 10 wrong ones in 15 minutes, then lets it try again', async () => {
    const user = await createUser(t);
    const device = await enableTwoFactor(t, user.token);
    const ticketOf = async () =>
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/login',
          body: { login: user.username, password: strongPassword },
        })
      ).json.errors[0].meta.ticket;
    const complete = (ticket: string, code: string) =>
      t.request({ method: 'POST', url: '/api/auth/two-factor', body: { ticket, code } });
    const wrong = () => device.code(new Date(t.clock.now().getTime() + 10 * 60_000));
    for (let round = 0; round < 2; round += 1) {
      const ticket = await ticketOf();
      for (let attempt = 0; attempt < 5; attempt += 1) assert.equal((await complete(ticket, wrong())).statusCode, 422);
    }
    const refused = await complete(await ticketOf(), device.code());
    assert.equal(refused.statusCode, 429, refused.body);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const disable = await t.request({
      method: 'DELETE',
      url: '/api/users/me/two-factor',
      token: user.token,
      body: { code: device.code() },
    });
    assert.equal(disable.statusCode, 429, "the limit is the account's, whatever route takes the code");
    t.clock.advance(15 * 60_000 + 1000);
    assert.equal((await complete(await ticketOf(), device.code())).statusCode, 200);
  });
});
