/** meta.total and unread-count come from per-user counters kept by triggers; they must equal the rows. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { dedupKeys } from './kinds.ts';

describe('notification counters', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  /** What the API says next to what the table holds. */
  async function check(user: TestUser) {
    const [real] = await queryRows<{ total: number; unread: number }>(
      t.deps.database.db,
      sql`SELECT count(*)::int AS total, (count(*) FILTER (WHERE read_at IS NULL))::int AS unread
          FROM notifications WHERE owner_id = ${user.id}`,
    );
    const all = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: user.token });
    const unread = await t.request({
      method: 'GET',
      url: '/api/users/me/notifications?filter=unread',
      token: user.token,
    });
    const count = await t.request({
      method: 'GET',
      url: '/api/users/me/notifications/unread-count',
      token: user.token,
    });
    assert.deepEqual(
      {
        total: all.json.meta.total,
        unreadTotal: unread.json.meta.total,
        unreadCount: count.json.data.attributes.count,
      },
      { total: real!.total, unreadTotal: real!.unread, unreadCount: real!.unread },
    );
    return real!;
  }

  const follow = (recipient: TestUser, actor: TestUser) =>
    t.services.areas.notifications.dispatcher.dispatch(
      recipient.id,
      'follow.received',
      { actorId: actor.id, actorUsername: actor.username, actorDisplayName: 'A' },
      dedupKeys.followReceived(actor.id),
    );

  it('follow every kind of write: dispatch, dedup merge, read, mark-all-read, delete', async () => {
    const user = await createUser(t);
    assert.deepEqual(await check(user), { total: 0, unread: 0 });
    const actors = await Promise.all([1, 2, 3, 4].map(() => createUser(t)));
    for (const actor of actors) await follow(user, actor);
    await follow(user, actors[0]!); // merged into the unread row: no new row
    assert.deepEqual(await check(user), { total: 4, unread: 4 });

    const list = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: user.token });
    const [first, second] = list.json.data;
    await t.request({ method: 'PATCH', url: `/api/users/me/notifications/${first.id}/read`, token: user.token });
    await t.request({ method: 'PATCH', url: `/api/users/me/notifications/${first.id}/read`, token: user.token });
    assert.deepEqual(await check(user), { total: 4, unread: 3 });

    await t.request({ method: 'DELETE', url: `/api/users/me/notifications/${first.id}`, token: user.token });
    await t.request({ method: 'DELETE', url: `/api/users/me/notifications/${second.id}`, token: user.token });
    assert.deepEqual(await check(user), { total: 2, unread: 2 });

    await t.request({ method: 'POST', url: '/api/users/me/notifications/mark-all-read', token: user.token });
    assert.deepEqual(await check(user), { total: 2, unread: 0 });
    await follow(user, actors[0]!); // the old row is read, so this is a new row
    assert.deepEqual(await check(user), { total: 3, unread: 1 });
  });

  it('stay exact under concurrent dispatches, reads and deletes', async () => {
    const user = await createUser(t);
    const actors = await Promise.all(Array.from({ length: 12 }, () => createUser(t)));
    await Promise.all(actors.flatMap((actor) => [follow(user, actor), follow(user, actor)]));
    const list = await t.request({ method: 'GET', url: '/api/users/me/notifications?limit=100', token: user.token });
    await Promise.all([
      ...list.json.data
        .slice(0, 4)
        .map((n: { id: string }) =>
          t.request({ method: 'PATCH', url: `/api/users/me/notifications/${n.id}/read`, token: user.token }),
        ),
      ...list.json.data
        .slice(3, 7)
        .map((n: { id: string }) =>
          t.request({ method: 'DELETE', url: `/api/users/me/notifications/${n.id}`, token: user.token }),
        ),
      ...actors.slice(0, 3).map(async (actor) => follow(user, actor)),
    ]);
    const counts = await check(user);
    assert.ok(counts.total >= 5);
  });
});
