/** The rate limits of POST /api/users/me/coupons (RATE_LIMITS=on): 10 an hour per user, after 30 per IP. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';

describe('rate limits on coupon redemption (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on', TRUST_PROXY: 'true' } });
  });
  after(() => t.close());

  const redeem = (token: string, ip: string) =>
    t.request({
      method: 'POST',
      url: '/api/users/me/coupons',
      token,
      body: { code: 'GUESS-1234' },
      headers: { 'x-forwarded-for': ip },
    });

  it('refuses the 11th try of a user within the hour, from another address too; another user goes on', async () => {
    const guesser = await createUser(t);
    for (let i = 0; i < 10; i++) assert.equal((await redeem(guesser.token, '203.0.113.1')).statusCode, 422);
    const refused = await redeem(guesser.token, '203.0.113.2');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const other = await createUser(t);
    assert.equal((await redeem(other.token, '203.0.113.1')).statusCode, 422);
    t.clock.advance(3_600_000);
    assert.equal((await redeem(guesser.token, '203.0.113.1')).statusCode, 422);
  });

  it('refuses an address past 30 tries an hour, whatever the user', async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < 3; i++) {
      const user = await createUser(t);
      for (let j = 0; j < 10; j++) assert.equal((await redeem(user.token, ip)).statusCode, 422);
    }
    const fresh = await createUser(t);
    assert.equal((await redeem(fresh.token, ip)).statusCode, 429);
  });
});
