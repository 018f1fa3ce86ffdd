import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('comments: rate limits', () => {
  let t: TestApp;
  let owner: TestUser;

  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
    owner = await createUser(t);
  });
  after(() => t.close());

  it('allows 10 comments a minute per user, then answers 429 with Retry-After; the next minute is open', async () => {
    const photo = await createMediaRow(t, owner.id);
    const writer = await createUser(t);
    const send = (user: TestUser) =>
      t.request({ method: 'POST', url: `/api/media/${photo.id}/comments`, token: user.token, body: { body: 'hi' } });
    for (let i = 0; i < 10; i++) {
      const res = await send(writer);
      assert.equal(res.statusCode, 201);
      assert.ok(res.headers['x-ratelimit-limit'] !== undefined);
    }
    const refused = await send(writer);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    // Another account on the same IP still has its own quota (the IP allows 60).
    assert.equal((await send(owner)).statusCode, 201);
    t.clock.advance(61_000);
    assert.equal((await send(writer)).statusCode, 201);
  });
});
