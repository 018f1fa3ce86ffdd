/**
 * Follows and experience awards for the same user at the same time must queue, not deadlock: both
 * lock the user before writing notifications (a deadlock here once gave 500s on PostgreSQL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';

describe('follows racing experience awards', () => {
  let t: TestApp;
  let fans: TestUser[];
  before(async () => {
    t = await createTestApp();
    fans = [];
    for (let i = 0; i < 10; i++) fans.push(await createUser(t));
  });
  after(() => t.close());

  it('lets 10 follows and 10 awards for one user all succeed, with one notification row each', async () => {
    const target = await createUser(t);
    const outcomes = await Promise.all(
      fans.flatMap((fan) => [
        t
          .request({ method: 'POST', url: `/api/users/me/following/${target.id}`, token: fan.token })
          .then((res) => res.statusCode),
        t.services.areas.gamification.gamification.awardExperience(target.id, 500, 'race').then(
          () => 'awarded',
          (error: Error) => `failed: ${error.message}`,
        ),
      ]),
    );
    assert.deepEqual(
      outcomes.filter((outcome) => outcome !== 201 && outcome !== 'awarded'),
      [],
    );
    const feed = await t.request({
      method: 'GET',
      url: '/api/users/me/notifications?limit=100',
      token: target.token,
    });
    const follows = feed.json.data.filter(
      (n: { attributes: { type: string } }) => n.attributes.type === 'follow.received',
    );
    assert.equal(follows.length, 10, 'every follow notified');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: target.token });
    assert.ok(me.json.data.attributes.experience >= 5000, 'every award counted');
  });
});
