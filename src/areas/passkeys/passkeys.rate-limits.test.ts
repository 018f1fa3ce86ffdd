/**
 * The passkey routes' rate limits (RATE_LIMITS=on), and the password of "confirm it is you" counted by
 * the login lockout: failures at sign-in and at the options call are one budget per (account, IP).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';

describe('passkey rate limits (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on', TRUST_PROXY: 'true' } });
  });
  after(() => t.close());

  it('refuses the right password at the options call once the login lockout holds the account here', async () => {
    const user = await createUser(t);
    const from = { 'x-forwarded-for': '10.9.0.1' };
    for (let i = 0; i < 10; i += 1) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        headers: from,
        body: { login: user.username, password: 'wrong password 1' },
      });
      assert.equal(res.statusCode, 401);
    }
    const locked = await t.request({
      method: 'POST',
      url: '/api/users/me/passkeys/options',
      token: user.token,
      headers: from,
      body: { password: strongPassword },
    });
    assert.equal(locked.statusCode, 429, locked.body);
    assert.equal(locked.json.errors[0].meta.rule, 'login:failures');
    // From elsewhere the owner still gets through.
    const elsewhere = await t.request({
      method: 'POST',
      url: '/api/users/me/passkeys/options',
      token: user.token,
      headers: { 'x-forwarded-for': '10.9.0.2' },
      body: { password: strongPassword },
    });
    assert.equal(elsewhere.statusCode, 200, elsewhere.body);
  });

  it('limits anonymous sign-in challenges to 30 per 15 minutes per IP', async () => {
    const from = { 'x-forwarded-for': '10.9.1.1' };
    for (let i = 0; i < 30; i += 1) {
      const res = await t.request({ method: 'POST', url: '/api/auth/passkey/options', headers: from });
      assert.equal(res.statusCode, 200);
    }
    const over = await t.request({ method: 'POST', url: '/api/auth/passkey/options', headers: from });
    assert.equal(over.statusCode, 429);
    assert.ok(Number(over.headers['retry-after']) > 0);
  });
});
