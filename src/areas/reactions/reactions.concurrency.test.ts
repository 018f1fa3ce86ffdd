import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { experienceFor } from '../gamification/rewards.ts';

const experienceForLikeReceived = experienceFor.likeReceived;

describe('reactions: counters under concurrency, and the owner reward', () => {
  let t: TestApp;
  let owner: TestUser;
  let crowd: TestUser[];
  const put = (user: TestUser, mediaId: string, type: 'like' | 'dislike') =>
    t.request({ method: 'PUT', url: `/api/users/me/media/${mediaId}/reaction`, token: user.token, body: { type } });
  const remove = (user: TestUser, mediaId: string) =>
    t.request({ method: 'DELETE', url: `/api/users/me/media/${mediaId}/reaction`, token: user.token });

  /** The counters on the media and the reactions really stored, side by side. */
  async function countersAndTruth(mediaId: string) {
    const row = await readMediaRow(t, mediaId);
    const [truth] = await queryRows<{ likes: number; dislikes: number }>(
      t.deps.database.db,
      sql`SELECT count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
          FROM media_reactions WHERE media_id = ${mediaId}`,
    );
    return { counters: { likes: row.likesCount, dislikes: row.dislikesCount }, truth: truth! };
  }

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    crowd = [];
    for (let i = 0; i < 32; i++) crowd.push(await createUser(t));
    // The crowd shows its reactions, so the likers list can be held to the counter.
    for (const user of crowd) {
      await t.request({
        method: 'PATCH',
        url: '/api/users/me/settings',
        token: user.token,
        body: { showReactionsPublicly: true },
      });
    }
  });
  after(() => t.close());

  it('keeps the counters equal to the stored reactions with 32 users reacting, switching and removing at once', async () => {
    const photo = await createMediaRow(t, owner.id);
    const first = await Promise.all(crowd.map((user, i) => put(user, photo.id, i % 3 === 0 ? 'dislike' : 'like')));
    assert.ok(first.every((res) => res.statusCode === 200));
    const second = await Promise.all(
      crowd.map((user, i) =>
        i % 4 === 0 ? remove(user, photo.id) : put(user, photo.id, i % 2 === 0 ? 'like' : 'dislike'),
      ),
    );
    assert.ok(second.every((res) => res.statusCode === 200 || res.statusCode === 204));
    const { counters, truth } = await countersAndTruth(photo.id);
    assert.deepEqual(counters, truth);
    // 8 removed (multiples of 4); of the 24 left, the even indexes like (8) and the odd ones dislike (16).
    assert.deepEqual(counters, { likes: 8, dislikes: 16 });

    const likers = await t.request({ method: 'GET', url: `/api/media/${photo.id}/likes?limit=100` });
    assert.equal(likers.json.data.length, 8, 'the likers list agrees with the counter');
  });

  it('keeps them right when one user fires 40 likes, dislikes and removals at once', async () => {
    const photo = await createMediaRow(t, owner.id);
    const [user] = crowd;
    const actions = Array.from({ length: 40 }, (_, i) =>
      i % 3 === 0 ? remove(user!, photo.id) : put(user!, photo.id, i % 3 === 1 ? 'like' : 'dislike'),
    );
    const answers = await Promise.all(actions);
    for (const res of answers) assert.ok([200, 204, 404].includes(res.statusCode), String(res.statusCode));
    const { counters, truth } = await countersAndTruth(photo.id);
    assert.deepEqual(counters, truth);
    assert.ok(counters.likes + counters.dislikes <= 1);
  });

  it('rewards the media owner once per liker and media, never for a self-like', async () => {
    const photo = await createMediaRow(t, owner.id);
    const experience = async () =>
      (await t.request({ method: 'GET', url: '/api/auth/me', token: owner.token })).json.data.attributes.experience;
    const start = await experience();
    const [fan, other] = crowd;
    await put(fan!, photo.id, 'like');
    assert.equal(await experience(), start + experienceForLikeReceived);
    await remove(fan!, photo.id);
    await put(fan!, photo.id, 'like');
    await put(fan!, photo.id, 'dislike');
    await put(fan!, photo.id, 'like');
    assert.equal(await experience(), start + experienceForLikeReceived, 'unliking and liking again earns nothing more');
    await put(other!, photo.id, 'dislike');
    assert.equal(await experience(), start + experienceForLikeReceived, 'a dislike earns nothing');
    await put(other!, photo.id, 'like');
    assert.equal(await experience(), start + 2 * experienceForLikeReceived, 'a dislike turned like is a first like');
    await put(owner, photo.id, 'like');
    assert.equal(await experience(), start + 2 * experienceForLikeReceived, 'liking my own media earns nothing');
  });
});
