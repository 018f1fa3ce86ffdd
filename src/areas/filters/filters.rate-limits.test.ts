import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';

describe('keyword filters: rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('allows 100 writes an hour per user (POST, PATCH and DELETE together), then 429 with Retry-After', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const remove = (token: string) =>
      t.request({ method: 'DELETE', url: `/api/users/me/filters/${randomUUID()}`, token });
    for (let i = 0; i < 99; i++) assert.equal((await remove(user.token)).statusCode, 404);
    const created = await t.request({
      method: 'POST',
      url: '/api/users/me/filters',
      token: user.token,
      body: { title: 'Last', context: ['feeds'], action: 'hide', keywords: [{ keyword: 'x' }] },
    });
    assert.equal(created.statusCode, 201);
    const refused = await t.request({
      method: 'PATCH',
      url: `/api/users/me/filters/${created.json.data.id}`,
      token: user.token,
      body: { title: 'Refused' },
    });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await remove(other.token)).statusCode, 404, 'another account keeps its own quota');
    t.clock.advance(3_601_000);
    assert.equal((await remove(user.token)).statusCode, 404);
  });
});
