/**
 * Blocks, unblocks and follows between the same two people at once (PostgreSQL, many connections): the
 * block locks both users in ascending id, the follow the followee, so they queue. Whatever the order,
 * nothing fails, no follow survives a block in force, and every count matches the rows it counts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { onPostgresOnly } from '../../../test/helpers/database.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';

describe('50 parallel blocks and unblocks between the same people', onPostgresOnly, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, user: TestUser) =>
    t.request({ method, url, token: user.token });
  const idsOf = async (url: string, user: TestUser) =>
    (await call('GET', `${url}?limit=100`, user)).json.data.map((item: { id: string }) => item.id) as string[];

  it('never fails, leaves no follow across a block in force, and keeps every count exact', async () => {
    const [ann, ben] = [await createUser(t), await createUser(t)];
    assert.equal((await call('POST', `/api/users/me/following/${ben.id}`, ann)).statusCode, 201);
    assert.equal((await call('POST', `/api/users/me/following/${ann.id}`, ben)).statusCode, 201);

    // Ten of each: blocks and unblocks both ways, and follows both ways, all at once.
    const operations = Array.from({ length: 50 }, (_, i) => {
      const [self, other] = i % 2 === 0 ? [ann, ben] : [ben, ann];
      switch (Math.floor(i / 2) % 5) {
        case 0:
        case 3:
          return { what: 'block', res: call('PUT', `/api/users/me/blocks/${other.id}`, self), ok: [200] };
        case 1:
          return { what: 'unblock', res: call('DELETE', `/api/users/me/blocks/${other.id}`, self), ok: [204] };
        default:
          return {
            what: 'follow',
            res: call('POST', `/api/users/me/following/${other.id}`, self),
            ok: [201, 404, 409],
          };
      }
    });
    const answered = await Promise.all(operations.map(async (op) => ({ ...op, status: (await op.res).statusCode })));
    assert.deepEqual(
      answered.filter((op) => !op.ok.includes(op.status)).map((op) => `${op.what} ${op.status}`),
      [],
    );

    const [annBlocks, benBlocks] = [await idsOf('/api/users/me/blocks', ann), await idsOf('/api/users/me/blocks', ben)];
    const blocked = annBlocks.includes(ben.id) || benBlocks.includes(ann.id);
    const follows = {
      annFollowing: await idsOf('/api/users/me/following', ann),
      annFollowers: await idsOf('/api/users/me/followers', ann),
      benFollowing: await idsOf('/api/users/me/following', ben),
      benFollowers: await idsOf('/api/users/me/followers', ben),
    };
    if (blocked) {
      assert.deepEqual(follows, { annFollowing: [], annFollowers: [], benFollowing: [], benFollowers: [] });
    }
    assert.equal(follows.annFollowing.includes(ben.id), follows.benFollowers.includes(ann.id));
    assert.equal(follows.benFollowing.includes(ann.id), follows.annFollowers.includes(ben.id));
    const { follows: counter } = t.services.areas.follows;
    for (const [user, following, followers] of [
      [ann, follows.annFollowing, follows.annFollowers],
      [ben, follows.benFollowing, follows.benFollowers],
    ] as const) {
      assert.deepEqual(await counter.counts(user.id), { followers: followers.length, following: following.length });
      // The notification counters (kept by triggers) match the feed, after every deletion of a block.
      const feed = await call('GET', '/api/users/me/notifications?limit=100', user);
      const unread = await call('GET', '/api/users/me/notifications/unread-count', user);
      assert.equal(feed.json.meta.total, feed.json.data.length);
      assert.equal(unread.json.data.attributes.count, feed.json.data.length, 'none of them read');
    }

    // Once both unblock, everything works again from a clean state.
    await call('DELETE', `/api/users/me/blocks/${ben.id}`, ann);
    await call('DELETE', `/api/users/me/blocks/${ann.id}`, ben);
    const again = await call('POST', `/api/users/me/following/${ben.id}`, ann);
    assert.ok([201, 409].includes(again.statusCode), again.body);
    assert.ok((await idsOf('/api/users/me/followers', ben)).includes(ann.id));
  });
});
