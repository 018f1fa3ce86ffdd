/** Commerce inputs at the edges, found by a review: each a 4xx or a right answer, never a 500. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../helpers/app.ts';

describe('commerce inputs at the edges', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers a near search around denormal coordinates, and refuses a radius under a metre', async () => {
    for (const query of ['lat=5e-324&lng=5e-324', 'lat=-5e-324&lng=0', 'lat=1e-310&lng=10']) {
      const res = await t.request({ method: 'GET', url: `/api/establishments?${query}` });
      assert.equal(res.statusCode, 200, query);
    }
    for (const radius of ['1e-320', '0.0001', '0']) {
      const res = await t.request({ method: 'GET', url: `/api/establishments?lat=10&lng=10&radiusKm=${radius}` });
      assert.equal(res.statusCode, 400, radius);
      assert.equal(res.json.errors[0].code, 'invalidQueryParameter');
    }
  });

  it('refuses report windows that are not RFC 3339 times', async () => {
    const id = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a';
    for (const query of ['from=1', 'to=2026', 'from=yesterday']) {
      const res = await t.request({ method: 'GET', url: `/admin/tracking/offer/${id}?${query}`, token: adminToken });
      assert.equal(res.statusCode, 400, query);
    }
  });

  it('refuses a coupon code without a letter or a digit', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/admin/coupons',
      token: adminToken,
      body: { id: '---', userLimit: 1, rewards: [{ rewardId: 1, value: 10 }] },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json.errors[0].source.pointer, '/id');
  });
});
