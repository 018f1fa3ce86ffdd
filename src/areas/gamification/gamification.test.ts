/** Experience, levels, titles and badges: one notification per level crossed, inside the award's transaction. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { experienceForLevel, levelForExperience } from './level-curve.ts';

describe('gamification', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const notificationsOf = async (user: TestUser, type: string) => {
    const res = await t.request({ method: 'GET', url: '/api/users/me/notifications?limit=100', token: user.token });
    // Rows of one award share createdAt (one clock reading), so order them by what they record.
    const key = (row: any) => [row.attributes.createdAt, row.attributes.data.rankIndex ?? row.attributes.data.level];
    return res.json.data
      .filter((row: any) => row.attributes.type === type)
      .sort((a: any, b: any) => (key(a)[0] < key(b)[0] ? -1 : key(a)[0] > key(b)[0] ? 1 : key(a)[1] - key(b)[1]));
  };
  const me = async (user: TestUser) =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).json.data.attributes;

  it('follows the documented level curve', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 10, 20].map(experienceForLevel), [100, 300, 600, 1000, 1500, 5500, 21000]);
    assert.equal(levelForExperience(0), 0);
    assert.equal(levelForExperience(99), 0);
    assert.equal(levelForExperience(100), 1);
    assert.equal(levelForExperience(5499), 9);
    assert.equal(levelForExperience(5500), 10);
  });

  it('badge L0 to L3 writes 3 badge.earned rows with the frozen data and dedup keys', async () => {
    const user = await createUser(t);
    const award = await t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'ambassador', 3);
    assert.equal(award.previousLevel, 0);
    assert.equal(award.level, 3);
    const rows = await notificationsOf(user, 'badge.earned');
    assert.equal(rows.length, 3);
    const badge = (await t.request({ method: 'GET', url: '/api/badges' })).json.data.find(
      (b: any) => b.attributes.slug === 'ambassador',
    );
    assert.deepEqual(
      rows.map((row: any) => row.attributes.data),
      [1, 2, 3].map((level) => ({
        badgeId: badge.id,
        badgeSlug: 'ambassador',
        level,
        maxLevel: 7,
        label: 'Ambassador',
        icon: 'megaphone',
        xpReward: badge.attributes.levels[level - 1].xpReward,
      })),
    );
    // The rewards were added to the experience: 10 + 40 + 80.
    assert.equal((await me(user)).experience, 130);
    // The same or a lower level again changes nothing.
    assert.equal((await t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'ambassador', 2)).level, 3);
    assert.equal((await notificationsOf(user, 'badge.earned')).length, 3);
    // Level 3 to 5 adds two more.
    await t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'ambassador', 5);
    assert.deepEqual(
      (await notificationsOf(user, 'badge.earned')).map((row: any) => row.attributes.data.level),
      [1, 2, 3, 4, 5],
    );
  });

  it('level 4 to 7 writes 3 user.level.up rows', async () => {
    const user = await createUser(t);
    await t.services.areas.gamification.gamification.awardExperience(user.id, experienceForLevel(4), 'test');
    const before = (await notificationsOf(user, 'user.level.up')).length;
    assert.equal(before, 4);
    t.clock.advance(1000);
    const award = await t.services.areas.gamification.gamification.awardExperience(
      user.id,
      experienceForLevel(7) - experienceForLevel(4),
      'test',
    );
    assert.deepEqual([award.previousLevel, award.level, award.experience], [4, 7, 2800]);
    const rows = (await notificationsOf(user, 'user.level.up')).slice(before);
    assert.deepEqual(
      rows.map((row: any) => row.attributes.data),
      [5, 6, 7].map((level) => ({ level, previousLevel: level - 1, experience: 2800 })),
    );
    const profile = await me(user);
    assert.deepEqual([profile.level, profile.experience], [7, 2800]);
  });

  it('crossing a title bucket writes one user.title.up row with displayTitle in the default locale', async () => {
    const user = await createUser(t);
    await t.services.areas.gamification.gamification.awardExperience(user.id, experienceForLevel(4), 'test');
    assert.equal((await notificationsOf(user, 'user.title.up')).length, 0);
    await t.services.areas.gamification.gamification.awardExperience(
      user.id,
      experienceForLevel(5) - experienceForLevel(4),
      'test',
    );
    const rows = await notificationsOf(user, 'user.title.up');
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0].attributes.data, {
      level: 5,
      titleSlug: 'wanderer',
      titleLabel: 'Wanderer',
      rankIndex: 1,
      displayTitle: 'Wanderer',
    });
    // Read in French, the texts are French but the frozen displayTitle stays in the default locale.
    const french = await t.request({
      method: 'GET',
      url: '/api/users/me/notifications?limit=100',
      token: user.token,
      headers: { 'accept-language': 'fr' },
    });
    const titleRow = french.json.data.find((row: any) => row.attributes.type === 'user.title.up');
    assert.equal(titleRow.attributes.title, 'Nouveau titre : Vagabond');
    assert.equal(titleRow.attributes.data.displayTitle, 'Wanderer');
  });

  it('gives one title row per bucket crossed, capped at the highest active title', async () => {
    const user = await createUser(t);
    await t.services.areas.gamification.gamification.awardExperience(user.id, experienceForLevel(42), 'test');
    const rows = await notificationsOf(user, 'user.title.up');
    assert.deepEqual(
      rows.map((row: any) => [row.attributes.data.titleSlug, row.attributes.data.rankIndex]),
      [
        ['wanderer', 1],
        ['pathfinder', 2],
        ['voyager', 3],
        ['globetrotter', 4],
        ['trailblazer', 5],
        ['legend', 6],
      ],
    );
    await t.services.areas.gamification.gamification.awardExperience(
      user.id,
      experienceForLevel(50) - experienceForLevel(42),
      'test',
    );
    assert.equal((await notificationsOf(user, 'user.title.up')).length, 6);
    const badges = await t.request({ method: 'GET', url: '/api/users/me/badges', token: user.token });
    assert.deepEqual(badges.json.meta.title, { slug: 'legend', label: 'Legend', rankIndex: 6 });
    assert.equal(badges.json.meta.level, 50);
  });

  it('a rolled-back award leaves no notification and no experience', async () => {
    const user = await createUser(t);
    await assert.rejects(
      t.services.platform.transactions.run(async () => {
        await t.services.areas.gamification.gamification.awardExperience(user.id, experienceForLevel(6), 'test');
        await t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'explorer', 2);
        throw new Error('the caller fails');
      }),
      /the caller fails/,
    );
    const feed = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: user.token });
    assert.equal(feed.json.meta.total, 0);
    assert.deepEqual([(await me(user)).level, (await me(user)).experience], [0, 0]);
    const badges = await t.request({ method: 'GET', url: '/api/users/me/badges', token: user.token });
    assert.equal(badges.json.data.length, 0);
  });

  it('refuses unknown badges, levels out of range and non-positive amounts', async () => {
    const user = await createUser(t);
    await assert.rejects(t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'astronaut', 1), {
      code: 'notFound',
    });
    await assert.rejects(t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'explorer', 8), {
      code: 'validationFailed',
    });
    await assert.rejects(t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'explorer', 0), {
      code: 'validationFailed',
    });
    await assert.rejects(t.services.areas.gamification.gamification.awardExperience(user.id, 0, 'test'), {
      code: 'validationFailed',
    });
    await assert.rejects(t.services.areas.gamification.gamification.awardExperience(randomUUID(), 10, 'test'), {
      code: 'notFound',
    });
  });

  it('GET /api/badges lists the catalogue with its levels, translated', async () => {
    const res = await t.request({ method: 'GET', url: '/api/badges' });
    assert.equal(res.statusCode, 200);
    const slugs = res.json.data.map((badge: any) => badge.attributes.slug);
    assert.deepEqual(slugs.slice(0, 3), ['explorer', 'photographer', 'ambassador']);
    const explorer = res.json.data[0];
    assert.equal(explorer.type, 'badges');
    assert.equal(explorer.attributes.maxLevel, explorer.attributes.levels.length);
    assert.deepEqual(explorer.attributes.levels[0], { level: 1, threshold: 1, xpReward: 20 });
    const french = await t.request({ method: 'GET', url: '/api/badges', headers: { 'accept-language': 'fr-FR' } });
    assert.equal(french.json.data[0].attributes.label, 'Explorateur');
    const paged = await t.request({ method: 'GET', url: '/api/badges?limit=2' });
    const next = await t.request({ method: 'GET', url: paged.json.links.next });
    assert.deepEqual(
      next.json.data.map((badge: any) => badge.attributes.slug),
      slugs.slice(2, 4),
    );
  });

  it("shows a user's badges to anyone, by UUID or hex; 404 unknown, 422 malformed, 401 for mine without a token", async () => {
    const user = await createUser(t);
    await t.services.areas.gamification.gamification.awardBadgeLevel(user.id, 'photographer', 2);
    for (const id of [user.id, user.hex]) {
      const res = await t.request({ method: 'GET', url: `/api/users/${id}/badges` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json.data.length, 1);
      assert.equal(res.json.data[0].type, 'userBadges');
      assert.deepEqual(
        {
          slug: res.json.data[0].attributes.slug,
          level: res.json.data[0].attributes.level,
          next: res.json.data[0].attributes.nextThreshold,
        },
        { slug: 'photographer', level: 2, next: 25 },
      );
      assert.equal(res.json.meta.experience, 40);
    }
    assert.equal((await t.request({ method: 'GET', url: `/api/users/${randomUUID()}/badges` })).statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: '/api/users/nobody/badges' })).statusCode, 422);
    assert.equal((await t.request({ method: 'GET', url: '/api/users/me/badges' })).statusCode, 401);
  });
});
