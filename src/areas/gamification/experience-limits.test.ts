/** Experience cannot be farmed: a post deleted soon after gives its reward back, and rewards have daily ceilings. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { makePng } from '../../../test/support/test-images.ts';
import { dailyExperienceCeilings, experienceFor } from './rewards.ts';

describe('experience limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const progress = async (user: TestUser) => {
    const attributes = (await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).json.data
      .attributes;
    return { experience: attributes.experience as number, level: attributes.level as number };
  };
  const post = async (user: TestUser, image: Buffer) => {
    const res = await upload(t, '/api/users/me/media', user.token, image);
    assert.equal(res.statusCode, 201, res.body);
    return res.json.data.id as string;
  };
  const remove = async (user: TestUser, mediaId: string) => {
    const res = await t.request({ method: 'DELETE', url: `/api/users/me/media/${mediaId}`, token: user.token });
    assert.equal(res.statusCode, 204);
  };
  const nextUtcDay = () => {
    const now = t.clock.now();
    t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 1)));
  };

  it('30 upload-then-delete cycles leave no experience; a post kept past 24 hours keeps its reward', async () => {
    const farmer = await createUser(t);
    const image = await makePng({ width: 12, height: 12 });
    const start = await progress(farmer);
    for (let cycle = 0; cycle < 30; cycle++) {
      const mediaId = await post(farmer, image);
      t.clock.advanceMinutes(1);
      await remove(farmer, mediaId);
    }
    assert.deepEqual(await progress(farmer), start, 'no experience and no level from posts that are gone');

    // A post that stays earns its reward (another day: the cycles used up today's ceiling).
    nextUtcDay();
    const kept = await post(farmer, image);
    const earned = await progress(farmer);
    assert.equal(earned.experience, start.experience + experienceFor.mediaPublished);
    // Deleted more than 24 hours later, it keeps what it earned.
    t.clock.advanceMinutes(25 * 60);
    await remove(farmer, kept);
    assert.deepEqual(await progress(farmer), earned);
  });

  it('stops follow rewards at the daily ceiling, exactly, under 30 parallel follows', async () => {
    const star = await createUser(t);
    const fans = await Promise.all(Array.from({ length: 30 }, () => createUser(t)));
    const responses = await Promise.all(
      fans.map((fan) => t.request({ method: 'POST', url: `/api/users/me/following/${star.id}`, token: fan.token })),
    );
    assert.ok(responses.every((res) => res.statusCode === 201));
    const ceiling = dailyExperienceCeilings.get('follow.received')!;
    assert.equal(ceiling, 200);
    const badgeReward = 10 + 40; // ambassador levels 1 and 10 (badge rewards have no ceiling: each level pays once)
    const afterFollows = await progress(star);
    assert.equal(afterFollows.experience, ceiling + badgeReward, '30 follows of 10 XP stop at the 200 XP ceiling');
    // The followers all count; only the experience stopped.
    const followers = await t.request({ method: 'GET', url: `/api/users/${star.id}/followers?limit=100` });
    assert.equal(followers.json.data.length, 30);

    nextUtcDay();
    const late = await createUser(t);
    const res = await t.request({ method: 'POST', url: `/api/users/me/following/${star.id}`, token: late.token });
    assert.equal(res.statusCode, 201);
    assert.equal(
      (await progress(star)).experience,
      ceiling + badgeReward + experienceFor.followReceived,
      'a new day, a new budget',
    );
  });

  it('caps the publish reward at 100 XP a day (10 posts kept)', async () => {
    nextUtcDay();
    const poster = await createUser(t);
    const image = await makePng({ width: 8, height: 8 });
    const start = (await progress(poster)).experience;
    for (let i = 0; i < 12; i++) await post(poster, image);
    const badgeReward = 10 + 30; // photographer levels 1 and 10 are reached by these posts
    assert.equal(
      (await progress(poster)).experience,
      start + dailyExperienceCeilings.get('media.published')! + badgeReward,
    );
  });
});
