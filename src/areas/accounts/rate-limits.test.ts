import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';
import { RedisRateLimitStore } from '../../platform/http/redis-rate-limit-store.ts';

describe('rate limits on the account routes (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('refuses the 11th login for one account in 15 minutes with 429, Retry-After and X-RateLimit-*', async () => {
    const user = await createUser(t);
    for (let i = 1; i <= 10; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: user.email, password: 'wrong password 1' },
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['x-ratelimit-limit'], '10');
      assert.equal(res.headers['x-ratelimit-remaining'], String(10 - i));
    }
    const limited = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email.toUpperCase(), password: strongPassword },
    });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json.errors[0].code, 'rateLimited');
    assert.equal(limited.headers['retry-after'], '900');
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    assert.equal(limited.headers['x-ratelimit-reset'], '900');

    const otherAccount = await createUser(t);
    const fine = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: otherAccount.email, password: strongPassword },
    });
    assert.equal(fine.statusCode, 200, 'another account from the same IP is still under its limits');

    t.clock.advanceMinutes(15);
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: strongPassword },
    });
    assert.equal(again.statusCode, 200, 'the window reset');
  });

  it('limits forgot-password and resend-confirmation per address, answering 202 until then', async () => {
    for (const url of ['/api/auth/forgot-password', '/api/auth/resend-confirmation']) {
      const email = `limited-${randomBytes(3).toString('hex')}@example.test`;
      for (let i = 0; i < 5; i++) {
        const res = await t.request({ method: 'POST', url, body: { email } });
        assert.equal(res.statusCode, 202, url);
        assert.equal(res.headers['x-ratelimit-limit'], '5');
      }
      const limited = await t.request({ method: 'POST', url, body: { email } });
      assert.equal(limited.statusCode, 429, url);
      assert.equal(limited.headers['retry-after'], '3600');
      assert.ok(limited.headers['x-ratelimit-reset']);
      const other = await t.request({ method: 'POST', url, body: { email: `x${email}` } });
      assert.equal(other.statusCode, 202);
    }
  });

  it('limits the IP across addresses on forgot-password', async () => {
    t.clock.advanceMinutes(61);
    let last = 0;
    for (let i = 0; i < 21; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/forgot-password',
        body: { email: `ip${i}@example.test` },
      });
      last = res.statusCode;
      if (i < 20) assert.equal(res.statusCode, 202, `request ${i + 1}`);
    }
    assert.equal(last, 429, 'the 21st request from one IP in an hour is refused');
  });
});

describe('RedisRateLimitStore against the local Redis', () => {
  const stores: RedisRateLimitStore[] = [];
  const freshPrefix = () => `test:${process.pid}:${randomBytes(6).toString('hex')}:`;
  const store = (prefix: string) => {
    const created = new RedisRateLimitStore('redis://127.0.0.1:6379', prefix);
    stores.push(created);
    return created;
  };
  after(async () => {
    for (const store of stores) await store.close();
  });

  it('counts hits per key inside one window and reports when it resets', async () => {
    const single = store(freshPrefix());
    const start = Date.now();
    const first = await single.hit('login:ip:1.2.3.4', 60_000);
    const second = await single.hit('login:ip:1.2.3.4', 60_000);
    const otherKey = await single.hit('login:ip:5.6.7.8', 60_000);
    assert.equal(first.count, 1);
    assert.equal(second.count, 2);
    assert.equal(otherKey.count, 1);
    assert.ok(second.resetAt > start && second.resetAt <= Date.now() + 60_000);
    assert.ok(Math.abs(second.resetAt - first.resetAt) < 1000, 'the window does not slide with each hit');
  });

  it('shares counters between instances (the point of Redis) and starts over after the window', async () => {
    const prefix = freshPrefix();
    const a = store(prefix);
    const b = store(prefix);
    await a.hit('k', 300);
    const shared = await b.hit('k', 300);
    assert.equal(shared.count, 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal((await a.hit('k', 300)).count, 1, 'a new window after expiry');
  });
});
