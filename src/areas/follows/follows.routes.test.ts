/** The 7 follow routes: rules, lists, relationship, errors, and what a new follow sets off. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { experienceFor } from '../gamification/rewards.ts';

const experiencePerFollowReceived = experienceFor.followReceived;

describe('follows', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const follow = (from: TestUser, to: string) =>
    t.request({ method: 'POST', url: `/api/users/me/following/${to}`, token: from.token });
  const unfollow = (from: TestUser, to: string) =>
    t.request({ method: 'DELETE', url: `/api/users/me/following/${to}`, token: from.token });
  const feedOf = async (user: TestUser) =>
    (await t.request({ method: 'GET', url: '/api/users/me/notifications?limit=100', token: user.token })).json;

  it('follows a user (201 with the relationship) and notifies them once with follow.received', async () => {
    const ana = await createUser(t, { nickname: 'Ana' });
    const bob = await createUser(t);
    const res = await follow(ana, bob.id);
    assert.equal(res.statusCode, 201);
    assert.deepEqual(res.json.data, {
      type: 'relationships',
      id: bob.id,
      attributes: {
        following: true,
        followedBy: false,
        followingSince: '2026-11-21T12:00:00.000+00:00',
        followedBySince: null,
        followRequested: false,
      },
    });
    const feed = await feedOf(bob);
    const received = feed.data.filter((row: any) => row.attributes.type === 'follow.received');
    assert.equal(received.length, 1);
    assert.deepEqual(received[0].attributes.data, {
      actorId: ana.id,
      actorUsername: ana.username,
      actorDisplayName: 'Ana',
    });
    assert.equal(received[0].attributes.body, 'Ana started following you.');
  });

  it('accepts a 32-hex id; following twice is 409 alreadyFollowing and notifies nothing more', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    assert.equal((await follow(ana, bob.hex)).statusCode, 201);
    const again = await follow(ana, bob.id);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json.errors[0].code, 'alreadyFollowing');
    assert.equal(again.json.errors[0].source.parameter, 'targetUserId');
    assert.equal((await feedOf(bob)).data.filter((row: any) => row.attributes.type === 'follow.received').length, 1);
  });

  it('refuses to follow oneself (422), an unknown user (404) and a malformed id (422)', async () => {
    const ana = await createUser(t);
    for (const self of [ana.id, ana.hex]) {
      const res = await follow(ana, self);
      assert.equal(res.statusCode, 422);
      assert.equal(res.json.errors[0].code, 'cannotFollowSelf');
    }
    const unknown = await follow(ana, randomUUID());
    assert.equal(unknown.statusCode, 404);
    const malformed = await follow(ana, 'bob');
    assert.equal(malformed.statusCode, 422);
    assert.equal(malformed.json.errors[0].code, 'invalidId');
    assert.equal(malformed.json.errors[0].source.parameter, 'targetUserId');
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/users/me/following', token: ana.token })).json.data.length,
      0,
    );
  });

  it('unfollows (204, idempotent); unknown user 404', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    await follow(ana, bob.id);
    assert.equal((await unfollow(ana, bob.hex)).statusCode, 204);
    assert.equal((await unfollow(ana, bob.id)).statusCode, 204);
    assert.equal((await unfollow(ana, randomUUID())).statusCode, 404);
    const relationship = await t.request({ method: 'GET', url: `/api/users/${bob.id}/relationship`, token: ana.token });
    assert.equal(relationship.json.data.attributes.following, false);
  });

  it('quick follow, unfollow, follow cycles merge into one notification and give experience once', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    for (let i = 0; i < 3; i++) {
      assert.equal((await follow(ana, bob.id)).statusCode, 201);
      assert.equal((await unfollow(ana, bob.id)).statusCode, 204);
      t.clock.advanceMinutes(1);
    }
    assert.equal((await feedOf(bob)).data.filter((row: any) => row.attributes.type === 'follow.received').length, 1);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: bob.token });
    // One follow's experience plus the ambassador level 1 reward (10).
    assert.equal(me.json.data.attributes.experience, experiencePerFollowReceived + 10);
  });

  it('a first follower earns the ambassador badge level 1', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    await follow(ana, bob.id);
    const badges = await t.request({ method: 'GET', url: `/api/users/${bob.hex}/badges` });
    assert.deepEqual(
      badges.json.data.map((badge: any) => [badge.attributes.slug, badge.attributes.level]),
      [['ambassador', 1]],
    );
    const earned = (await feedOf(bob)).data.filter((row: any) => row.attributes.type === 'badge.earned');
    assert.equal(earned.length, 1);
    assert.equal(earned[0].attributes.data.badgeSlug, 'ambassador');
  });

  it('tells the relationship both ways; 404 unknown, 422 malformed, 401 without a token', async () => {
    const ana = await createUser(t);
    const bob = await createUser(t);
    await follow(bob, ana.id);
    const get = (url: string, token?: string) => t.request({ method: 'GET', url, token });
    const seenByAna = await get(`/api/users/${bob.hex}/relationship`, ana.token);
    assert.equal(seenByAna.statusCode, 200);
    assert.equal(seenByAna.json.data.id, bob.id);
    assert.deepEqual(
      [seenByAna.json.data.attributes.following, seenByAna.json.data.attributes.followedBy],
      [false, true],
    );
    await follow(ana, bob.id);
    const mutual = await get(`/api/users/${bob.id}/relationship`, ana.token);
    assert.deepEqual([mutual.json.data.attributes.following, mutual.json.data.attributes.followedBy], [true, true]);
    assert.equal((await get(`/api/users/${randomUUID()}/relationship`, ana.token)).statusCode, 404);
    assert.equal((await get('/api/users/xyz/relationship', ana.token)).statusCode, 422);
    assert.equal((await get(`/api/users/${bob.id}/relationship`)).statusCode, 401);
  });

  it("pages following and followers as public users, newest follow first, mine and anyone's", async () => {
    const star = await createUser(t);
    const fans: TestUser[] = [];
    for (let i = 0; i < 5; i++) {
      const fan = await createUser(t);
      fans.push(fan);
      await follow(fan, star.id);
      await follow(star, fan.id);
      t.clock.advance(1000);
    }
    const newestFirst = fans.map((fan) => fan.id).reverse();
    const walk = async (url: string, token?: string) => {
      const ids: string[] = [];
      let next: string | null = url;
      while (next) {
        const res = await t.request({ method: 'GET', url: next, token });
        assert.equal(res.statusCode, 200, next);
        assert.equal(res.json.meta.limit, 2);
        for (const user of res.json.data) {
          assert.equal(user.type, 'users');
          assert.equal(user.attributes.hex, user.id.replaceAll('-', ''));
          assert.equal(user.attributes.email, undefined, 'no private fields');
        }
        ids.push(...res.json.data.map((user: any) => user.id));
        next = res.json.links.next;
      }
      return ids;
    };
    assert.deepEqual(await walk('/api/users/me/followers?limit=2', star.token), newestFirst);
    assert.deepEqual(await walk('/api/users/me/following?limit=2', star.token), newestFirst);
    assert.deepEqual(await walk(`/api/users/${star.hex}/followers?limit=2`), newestFirst);
    assert.deepEqual(await walk(`/api/users/${star.id}/following?limit=2`), newestFirst);
    assert.deepEqual(await walk(`/api/users/${fans[0]!.id}/following?limit=2`), [star.id]);
    assert.equal((await t.request({ method: 'GET', url: `/api/users/${randomUUID()}/followers` })).statusCode, 404);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/users/me/followers?limit=0', token: star.token })).statusCode,
      400,
    );
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/users/me/followers?cursor=zz', token: star.token })).statusCode,
      400,
    );
    assert.equal((await t.request({ method: 'GET', url: '/api/users/me/followers' })).statusCode, 401);
  });
});
