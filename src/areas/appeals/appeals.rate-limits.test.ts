/** Appeals' rate limits (RATE_LIMITS on): per account by session, per IP by mailed link (the API and the page together). */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';

describe('appeals: rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('allows 10 appeals an hour per account, refused ones included, then 429 with Retry-After', async () => {
    const user = await createUser(t);
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/users/me/appeals',
        token: user.token,
        body: { decisionId: randomUUID(), text: 'Please look again' },
      });
    for (let i = 0; i < 10; i++) assert.equal((await send()).statusCode, 404);
    const refused = await send();
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    t.clock.advance(3_601_000);
    assert.equal((await send()).statusCode, 404);
  });

  it('allows 10 link appeals an hour per IP, over the API and the web form together', async () => {
    const byApi = () =>
      t.request({ method: 'POST', url: '/api/appeals', body: { token: 'tma_guess', text: 'Please look again' } });
    const byForm = () =>
      t.request({
        method: 'POST',
        url: '/appeal?token=tma_guess',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        payload: 'text=Please',
      });
    for (let i = 0; i < 5; i++) {
      assert.equal((await byApi()).statusCode, 422);
      assert.equal((await byForm()).statusCode, 422);
    }
    const refused = await byApi();
    assert.equal(refused.statusCode, 429);
    assert.equal((await byForm()).statusCode, 429);
  });
});
