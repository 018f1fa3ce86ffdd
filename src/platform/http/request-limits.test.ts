/**
 * What a small request can cost: validation errors are capped and stop early on large bodies, rate
 * limits count requests before their bodies are validated, and the in-memory rate-limit store is
 * bounded and gets no per-account counter from a request its IP rule refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { ManualClock } from '../clock.ts';
import { MemoryRateLimitStore } from './memory-rate-limit-store.ts';

const unknownKeys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`u${index}`, 0]));

describe('validation errors of a request body', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('lists at most 20 errors and counts the rest in meta', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/register', body: unknownKeys(30) });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json.errors.length, 20);
    // 30 unknown fields, plus the two required ones missing (email and password).
    assert.deepEqual(res.json.meta, { errorsOmitted: 12, maxErrorsShown: 20 });
  });

  it('answers a body of 60,000 unknown keys with one small error, saying validation stopped early', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/register', body: unknownKeys(60_000) });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json.errors.length, 1);
    assert.equal(res.json.meta.validationStoppedEarly, true);
    assert.ok(res.body.length < 2_000, `the answer holds ${res.body.length} bytes`);
  });
});

describe('rate limits and request bodies (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('counts requests whose body fails validation', async () => {
    // POST /api/auth/register allows 10 an hour per IP.
    for (let i = 0; i < 10; i++) {
      const res = await t.request({ method: 'POST', url: '/api/auth/register', body: { nope: i } });
      assert.equal(res.statusCode, 422);
    }
    const refused = await t.request({ method: 'POST', url: '/api/auth/register', body: { nope: 10 } });
    assert.equal(refused.statusCode, 429);
    assert.ok(refused.headers['retry-after']);
  });

  it('keeps no per-address counter for a request its IP rule refused', async () => {
    const store = t.deps.rateLimitStore as MemoryRateLimitStore;
    // forgot-password: 20 an hour per IP, then 5 per address.
    for (let i = 0; i < 20; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/forgot-password',
        body: { email: `first-${i}@example.test` },
      });
      assert.equal(res.statusCode, 202);
    }
    const sizeAtTheLimit = store.size;
    for (let i = 0; i < 50; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/forgot-password',
        body: { email: `unique-${i}@example.test` },
      });
      assert.equal(res.statusCode, 429);
    }
    assert.equal(store.size, sizeAtTheLimit, 'refused requests added no counter');
  });
});

describe('MemoryRateLimitStore', () => {
  it('holds at most its number of keys, forgetting the least recently counted first', async () => {
    const store = new MemoryRateLimitStore(new ManualClock(new Date('2026-11-24T10:00:00Z')), 3);
    await store.hit('a', 60_000);
    await store.hit('b', 60_000);
    await store.hit('c', 60_000);
    await store.hit('a', 60_000);
    await store.hit('d', 60_000);
    assert.equal(store.size, 3);
    assert.equal((await store.hit('a', 60_000)).count, 3, 'a was counted recently and kept');
    assert.equal((await store.hit('b', 60_000)).count, 1, 'b was the oldest and was forgotten');
  });

  it('starts a key over once its window has passed', async () => {
    const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
    const store = new MemoryRateLimitStore(clock);
    await store.hit('k', 60_000);
    assert.equal((await store.hit('k', 60_000)).count, 2);
    clock.advanceMinutes(1);
    assert.equal((await store.hit('k', 60_000)).count, 1);
  });
});
