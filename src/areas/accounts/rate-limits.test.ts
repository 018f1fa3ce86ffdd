import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';
import { freePort } from '../../../test/helpers/processes.ts';
import { RedisRateLimitStore } from '../../platform/http/redis-rate-limit-store.ts';

describe('rate limits on the account routes (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    // Client addresses come from X-Forwarded-For, so a test can speak from several IPs.
    t = await createTestApp({ env: { RATE_LIMITS: 'on', TRUST_PROXY: 'true' } });
  });
  after(() => t.close());

  let nextIp = 0;
  const freshIp = () => {
    nextIp += 1;
    return `10.${nextIp >> 8}.${nextIp & 255}.1`;
  };
  const login = (from: string, body: { email?: string; login?: string; password: string }) =>
    t.request({ method: 'POST', url: '/api/auth/login', body, headers: { 'x-forwarded-for': from } });
  const wrong = 'wrong password 1';

  it('locks one account out of one IP after 10 failures, whatever spelling named it; the owner elsewhere signs in', async () => {
    const user = await createUser(t);
    const stranger = freshIp();
    for (let i = 1; i <= 10; i++) {
      // E-mail and username of one account are one bucket.
      const body = i % 2 === 0 ? { email: user.email, password: wrong } : { login: user.username, password: wrong };
      const res = await login(stranger, body);
      assert.equal(res.statusCode, 401, `failure ${i}`);
      assert.equal(res.headers['x-ratelimit-limit'], '30', 'the per-IP rule of all requests');
    }
    for (const body of [
      { email: user.email.toUpperCase(), password: strongPassword },
      { login: user.username, password: strongPassword },
    ]) {
      const locked = await login(stranger, body);
      assert.equal(locked.statusCode, 429, 'even the right password, from the failing IP');
      assert.equal(locked.json.errors[0].code, 'rateLimited');
      assert.equal(locked.headers['retry-after'], '900');
    }

    const owner = await login(freshIp(), { email: user.email, password: strongPassword });
    assert.equal(owner.statusCode, 200, 'failures from elsewhere do not refuse the owner');
    assert.equal(owner.headers['cache-control'], 'no-store');

    t.clock.advanceMinutes(15);
    assert.equal((await login(stranger, { email: user.email, password: strongPassword })).statusCode, 200);
  });

  it('counts failures only: successful sign-ins use none of the budget', async () => {
    const user = await createUser(t);
    const ip = freshIp();
    for (let i = 0; i < 12; i++)
      assert.equal((await login(ip, { email: user.email, password: strongPassword })).statusCode, 200);
    for (let i = 1; i <= 10; i++)
      assert.equal((await login(ip, { email: user.email, password: wrong })).statusCode, 401);
    assert.equal((await login(ip, { email: user.email, password: strongPassword })).statusCode, 429);
  });

  it('locks an unknown account exactly like a known one (no enumeration)', async () => {
    const ip = freshIp();
    const email = `nobody-${randomBytes(3).toString('hex')}@example.test`;
    for (let i = 1; i <= 10; i++) assert.equal((await login(ip, { email, password: wrong })).statusCode, 401);
    const locked = await login(ip, { email: email.toUpperCase(), password: wrong });
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.headers['retry-after'], '900');
  });

  it('past 50 failures on an account from anywhere, an IP that failed once is refused; a clean IP is not', async () => {
    const user = await createUser(t);
    for (let ip = 0; ip < 5; ip++) {
      const from = freshIp();
      for (let i = 0; i < 10; i++)
        assert.equal((await login(from, { email: user.email, password: wrong })).statusCode, 401);
    }
    const onceFailed = freshIp();
    assert.equal((await login(onceFailed, { email: user.email, password: wrong })).statusCode, 401, 'its one guess');
    assert.equal((await login(onceFailed, { email: user.email, password: strongPassword })).statusCode, 429);
    assert.equal((await login(freshIp(), { email: user.email, password: strongPassword })).statusCode, 200);
  });

  it("forgot-password: a stranger cannot block the owner's recovery; mails are capped per address", async () => {
    t.clock.advanceMinutes(61);
    const user = await createUser(t);
    const ask = (from: string) =>
      t.request({
        method: 'POST',
        url: '/api/auth/forgot-password',
        body: { email: user.email },
        headers: { 'x-forwarded-for': from },
      });
    const resetMails = () => t.mail.sent.filter((mail) => mail.to === user.email && /reset=/.test(mail.text));
    const stranger = freshIp();
    for (let i = 0; i < 5; i++) assert.equal((await ask(stranger)).statusCode, 202);
    const refused = await ask(stranger);
    assert.equal(refused.statusCode, 429, 'the 6th from one IP for one address');
    assert.equal(refused.headers['retry-after'], '3600');
    // More from other IPs: still 202 to everyone (the owner included), but no sixth mail in the hour.
    for (let i = 0; i < 3; i++) assert.equal((await ask(freshIp())).statusCode, 202);
    assert.equal((await ask(freshIp())).statusCode, 202, 'the owner is not refused');
    await t.services.areas.accounts.mailFlows.drain();
    const mails = resetMails();
    assert.equal(mails.length, 5, 'at most 5 reset mails an hour');
    // The newest link sent still works: requests past the cap voided nothing.
    const token = /reset=([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.text)![1];
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: 'a brand new password 7' },
    });
    assert.equal(reset.statusCode, 204);

    t.clock.advanceMinutes(61);
    assert.equal((await ask(freshIp())).statusCode, 202);
    await t.services.areas.accounts.mailFlows.drain();
    assert.equal(resetMails().length, 6, 'a new hour, a new mail');
  });

  it('limits forgot-password and resend-confirmation per address across IPs at 30 an hour', async () => {
    t.clock.advanceMinutes(61);
    for (const url of ['/api/auth/forgot-password', '/api/auth/resend-confirmation']) {
      const email = `limited-${randomBytes(3).toString('hex')}@example.test`;
      for (let i = 0; i < 30; i++) {
        const res = await t.request({
          method: 'POST',
          url,
          body: { email },
          headers: { 'x-forwarded-for': freshIp() },
        });
        assert.equal(res.statusCode, 202, `${url} ${i + 1}`);
      }
      const limited = await t.request({
        method: 'POST',
        url,
        body: { email },
        headers: { 'x-forwarded-for': freshIp() },
      });
      assert.equal(limited.statusCode, 429, url);
      assert.equal(limited.headers['retry-after'], '3600');
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

describe('RedisRateLimitStore while Redis does not answer', () => {
  it('counts in the memory of its instance: the limits still hold, nothing waits or fails', async () => {
    const port = await freePort(); // nothing listens there
    const store = new RedisRateLimitStore(`redis://127.0.0.1:${port}`);
    try {
      const counts = [];
      for (let i = 0; i < 3; i++) counts.push((await store.hit('forgot:ip:1.2.3.4', 60_000)).count);
      assert.deepEqual(counts, [1, 2, 3]);
      assert.equal((await store.peek('forgot:ip:1.2.3.4'))?.count, 3);
      assert.equal(await store.peek('forgot:ip:5.6.7.8'), null);
    } finally {
      await store.close();
    }
  });
});

describe('RedisRateLimitStore against the local Redis', () => {
  const stores: RedisRateLimitStore[] = [];
  const freshPrefix = () => `test:${process.pid}:${randomBytes(6).toString('hex')}:`;
  const store = (prefix: string) => {
    const created = new RedisRateLimitStore('redis://127.0.0.1:6379', { prefix });
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

  it('peeks at a window without counting a hit (the login lockout reads its failures so)', async () => {
    const single = store(freshPrefix());
    assert.equal(await single.peek('login-failures:x'), null);
    await single.hit('login-failures:x', 60_000);
    const seen = await single.peek('login-failures:x');
    assert.equal(seen?.count, 1);
    assert.equal((await single.peek('login-failures:x'))?.count, 1, 'peeking counted nothing');
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
