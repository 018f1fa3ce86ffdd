/** Coupons: the admin routes, redemption by users and at registration, the user limit under concurrency. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';

describe('coupons', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  let serial = 0;
  const uniqueCode = (prefix: string) => `${prefix}-${++serial}${Date.now().toString(36)}`.toUpperCase();
  const createCoupon = (body: unknown, token = adminToken) =>
    t.request({ method: 'POST', url: '/admin/coupons', token, body });
  const redeem = (user: TestUser, code: string) =>
    t.request({ method: 'POST', url: '/api/users/me/coupons', token: user.token, body: { code } });
  const experienceOf = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token })).json.data.attributes.experience as number;
  const xp = (value: number) => [{ rewardId: 1, value }];

  it('creates a coupon (201, code upper-cased) and audits it; the same code in any case is 409', async () => {
    const code = uniqueCode('summer');
    const res = await createCoupon({
      id: code.toLowerCase(),
      userLimit: 3,
      rewards: [
        { rewardId: 1, value: 100 },
        { rewardId: 2, value: 2, badge: 'explorer' },
      ],
      validUntil: '2026-12-31T23:00:00+01:00',
    });
    assert.equal(res.statusCode, 201);
    assert.match(res.json.data.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(res.json.data.attributes, {
      code,
      userLimit: 3,
      redemptionsCount: 0,
      remaining: 3,
      rewards: [
        { rewardId: 1, value: 100 },
        { rewardId: 2, value: 2, badge: 'explorer' },
      ],
      validFrom: null,
      validUntil: '2026-12-31T22:00:00.000+00:00',
      createdAt: '2026-11-21T12:00:00.000+00:00',
    });
    const audit = await t.request({ method: 'GET', url: '/admin/audit?action=coupon.create', token: adminToken });
    assert.ok(audit.json.data.some((entry: any) => entry.attributes.target.id === res.json.data.id));

    const again = await createCoupon({ id: code, userLimit: 1, rewards: xp(5) });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json.errors[0].code, 'couponCodeTaken');
    assert.equal(again.json.errors[0].source.pointer, '/id');
  });

  it('refuses bad coupons with 422 and writes nothing', async () => {
    const code = uniqueCode('bad');
    const cases: [unknown, string][] = [
      [{ id: code, userLimit: 0, rewards: xp(10) }, '/userLimit'],
      [{ id: code, userLimit: 1, rewards: [{ rewardId: 3, value: 1 }] }, '/rewards/0/rewardId'],
      [{ id: code, userLimit: 1, rewards: [] }, '/rewards'],
      [{ id: code, userLimit: 1, rewards: xp(10_001) }, '/rewards/0/value'],
      [{ id: code, userLimit: 1, rewards: [{ rewardId: 2, value: 1, badge: 'no-such-badge' }] }, '/rewards/0/badge'],
      [{ id: code, userLimit: 1, rewards: [{ rewardId: 2, value: 99, badge: 'explorer' }] }, '/rewards/0/value'],
      [{ id: code, userLimit: 1, rewards: [{ rewardId: 2, value: 1 }] }, '/rewards/0/badge'],
      [{ id: code, userLimit: 1, rewards: [...xp(1), ...xp(2)] }, '/rewards/1/rewardId'],
      [{ id: 'a b', userLimit: 1, rewards: xp(10) }, '/id'],
      [{ id: 'AB', userLimit: 1, rewards: xp(10) }, '/id'],
      [
        {
          id: code,
          userLimit: 1,
          rewards: xp(1),
          validFrom: '2027-01-02T00:00:00Z',
          validUntil: '2027-01-01T00:00:00Z',
        },
        '/validUntil',
      ],
      [{ id: code, userLimit: 1, rewards: xp(1), validUntil: 'tomorrow' }, '/validUntil'],
    ];
    for (const [body, pointer] of cases) {
      const res = await createCoupon(body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json.errors[0].source.pointer, pointer, JSON.stringify(body));
    }
    const list = await t.request({ method: 'GET', url: '/admin/coupons?limit=100', token: adminToken });
    assert.ok(!list.json.data.some((coupon: any) => coupon.attributes.code === code));
  });

  it('admin routes refuse a user token and no token', async () => {
    const user = await createUser(t);
    for (const token of [user.token, undefined]) {
      const body = { id: uniqueCode('x'), userLimit: 1, rewards: xp(1) };
      assert.equal((await t.request({ method: 'POST', url: '/admin/coupons', token, body })).statusCode, 401);
      assert.equal((await t.request({ method: 'GET', url: '/admin/coupons', token })).statusCode, 401);
      assert.equal(
        (await t.request({ method: 'GET', url: '/admin/coupons/ANY-CODE/redemptions', token })).statusCode,
        401,
      );
    }
  });

  it('lists coupons newest first with keyset pages', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      const code = uniqueCode('page');
      codes.push(code);
      assert.equal((await createCoupon({ id: code, userLimit: 1, rewards: xp(1) })).statusCode, 201);
    }
    const first = await t.request({ method: 'GET', url: '/admin/coupons?limit=2', token: adminToken });
    assert.equal(first.statusCode, 200);
    assert.equal(first.json.meta.limit, 2);
    assert.deepEqual(
      first.json.data.map((coupon: any) => coupon.attributes.code),
      [codes[2], codes[1]],
    );
    const next = await t.request({
      method: 'GET',
      url: new URL(first.json.links.next).pathname + new URL(first.json.links.next).search,
      token: adminToken,
    });
    assert.equal(next.json.data[0].attributes.code, codes[0]);
    const tooMany = await t.request({ method: 'GET', url: '/admin/coupons?limit=101', token: adminToken });
    assert.equal(tooMany.statusCode, 400);
  });

  it('a user redeems once: rewards given (experience, badge level), a second time is 409', async () => {
    const code = uniqueCode('gift');
    await createCoupon({
      id: code,
      userLimit: 5,
      rewards: [
        { rewardId: 1, value: 100 },
        { rewardId: 2, value: 2, badge: 'explorer' },
      ],
    });
    const user = await createUser(t);
    const before = await experienceOf(user.token);
    const res = await redeem(user, code.toLowerCase());
    assert.equal(res.statusCode, 201);
    assert.equal(res.json.data.type, 'couponRedemptions');
    assert.deepEqual(res.json.data.attributes, {
      code,
      redeemedAt: '2026-11-21T12:00:03.000+00:00',
      rewards: [
        { rewardId: 1, value: 100 },
        { rewardId: 2, value: 2, badge: 'explorer' },
      ],
    });
    // 100 from the coupon, 20 + 40 from the explorer badge's first two levels.
    assert.equal(await experienceOf(user.token), before + 160);
    const badges = await t.request({ method: 'GET', url: '/api/users/me/badges', token: user.token });
    assert.equal(badges.json.data.find((badge: any) => badge.attributes.slug === 'explorer').attributes.level, 2);

    const again = await redeem(user, code);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json.errors[0].code, 'couponAlreadyRedeemed');
    assert.equal(await experienceOf(user.token), before + 160);

    const redemptions = await t.request({
      method: 'GET',
      url: `/admin/coupons/${code.toLowerCase()}/redemptions`,
      token: adminToken,
    });
    assert.equal(redemptions.statusCode, 200);
    assert.equal(redemptions.json.data.length, 1);
    assert.deepEqual(redemptions.json.data[0].attributes, {
      username: user.username,
      redeemedAt: '2026-11-21T12:00:03.000+00:00',
    });
    assert.equal(redemptions.json.data[0].relationships.user.data.id, user.id);
    const couponId = redemptions.json.data[0].relationships.coupon.data.id;
    const byId = await t.request({ method: 'GET', url: `/admin/coupons/${couponId}/redemptions`, token: adminToken });
    assert.equal(byId.json.data.length, 1);
  });

  it('refuses unknown, not yet valid and expired codes (422 with a reason), and a bad code shape', async () => {
    const user = await createUser(t);
    const unknown = await redeem(user, 'NO-SUCH-CODE');
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.json.errors[0].code, 'couponInvalid');
    assert.equal(unknown.json.errors[0].meta.reason, 'unknown');
    assert.equal(unknown.json.errors[0].source.pointer, '/code');

    const later = uniqueCode('later');
    await createCoupon({
      id: later,
      userLimit: 5,
      rewards: xp(1),
      validFrom: '2026-11-22T00:00:00Z',
      validUntil: '2026-11-23T00:00:00Z',
    });
    assert.equal((await redeem(user, later)).json.errors[0].meta.reason, 'notYetValid');
    t.clock.advance(24 * 3_600_000);
    const other = await createUser(t);
    assert.equal((await redeem(other, later)).statusCode, 201);
    t.clock.advance(24 * 3_600_000);
    const expired = await redeem(user, later);
    assert.equal(expired.statusCode, 422);
    assert.equal(expired.json.errors[0].meta.reason, 'expired');

    const shape = await redeem(user, 'bad code!');
    assert.equal(shape.statusCode, 422);
    assert.equal(shape.json.errors[0].source.pointer, '/code');
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/users/me/coupons', body: { code: later } })).statusCode,
      401,
    );
    const missing = await t.request({
      method: 'GET',
      url: '/admin/coupons/NO-SUCH-CODE/redemptions',
      token: adminToken,
    });
    assert.equal(missing.statusCode, 404);
    const badParam = await t.request({ method: 'GET', url: '/admin/coupons/a!b/redemptions', token: adminToken });
    assert.equal(badParam.statusCode, 422);
  });

  it('holds userLimit under 50 parallel redemptions: exactly 10 succeed', async () => {
    const code = uniqueCode('rush');
    await createCoupon({ id: code, userLimit: 10, rewards: xp(10) });
    const users = await Promise.all(Array.from({ length: 50 }, () => createUser(t)));
    const answers = await Promise.all(users.map((user) => redeem(user, code)));
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 10);
    assert.equal(statuses.filter((status) => status === 409).length, 40);
    for (const answer of answers.filter((one) => one.statusCode === 409)) {
      assert.equal(answer.json.errors[0].code, 'couponExhausted');
    }
    const redemptions = await t.request({
      method: 'GET',
      url: `/admin/coupons/${code}/redemptions?limit=100`,
      token: adminToken,
    });
    assert.equal(redemptions.json.data.length, 10);
    const list = await t.request({ method: 'GET', url: '/admin/coupons?limit=100', token: adminToken });
    const coupon = list.json.data.find((one: any) => one.attributes.code === code);
    assert.equal(coupon.attributes.redemptionsCount, 10);
    assert.equal(coupon.attributes.remaining, 0);
  });

  it('redeems a coupon at registration; a refused one fails the registration and writes nothing', async () => {
    const code = uniqueCode('welcome');
    await createCoupon({ id: code, userLimit: 1, rewards: xp(250) });
    const register = (email: string, couponCode?: string) =>
      t.request({ method: 'POST', url: '/api/auth/register', body: { email, password: strongPassword, couponCode } });
    const ok = await register('coupon-new@example.test', code.toLowerCase());
    assert.equal(ok.statusCode, 201);
    assert.equal(await experienceOf(ok.json.data.attributes.accessToken), 250);

    const unknown = await register('coupon-unknown@example.test', 'NOPE-NOPE');
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.json.errors[0].code, 'couponInvalid');
    assert.equal(unknown.json.errors[0].source.pointer, '/couponCode');
    const exhausted = await register('coupon-exhausted@example.test', code);
    assert.equal(exhausted.statusCode, 409);
    assert.equal(exhausted.json.errors[0].code, 'couponExhausted');
    // Nothing was written: the same addresses register without the coupon.
    assert.equal((await register('coupon-unknown@example.test')).statusCode, 201);
    assert.equal((await register('coupon-exhausted@example.test')).statusCode, 201);
    const redemptions = await t.request({
      method: 'GET',
      url: `/admin/coupons/${code}/redemptions`,
      token: adminToken,
    });
    assert.equal(redemptions.json.data.length, 1);
  });
});
