/** Dispatch rules of the interface: inApp preference, soft dedup window, race-free merge, UUID v4, rollback. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { dedupKeys } from './kinds.ts';

const followData = (actor: TestUser) => ({ actorId: actor.id, actorUsername: actor.username, actorDisplayName: 'Ana' });

describe('notification dispatch', () => {
  let t: TestApp;
  let actor: TestUser;
  before(async () => {
    t = await createTestApp({ env: { NOTIFICATION_DEDUP_WINDOW_MINUTES: '5' } });
    actor = await createUser(t);
  });
  after(() => t.close());

  const feed = async (user: TestUser, query = '') =>
    (await t.request({ method: 'GET', url: `/api/users/me/notifications${query}`, token: user.token })).json;
  const dispatchFollow = (recipient: TestUser) =>
    t.services.areas.notifications.dispatcher.dispatch(
      recipient.id,
      'follow.received',
      followData(actor),
      dedupKeys.followReceived(actor.id),
    );

  it('writes a row with a UUID v4 id, created_at from the clock, the frozen data and no push yet', async () => {
    const recipient = await createUser(t);
    const outcome = await dispatchFollow(recipient);
    assert.equal(outcome.outcome, 'inserted');
    const body = await feed(recipient);
    assert.equal(body.data.length, 1);
    const [row] = body.data;
    assert.match(row.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(row.attributes.createdAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    assert.deepEqual(row.attributes.data, followData(actor));
    const [stored] = await queryRows<{ dedup_key: string; pushed_at: Date | null }>(
      t.deps.database.db,
      sql`SELECT dedup_key, pushed_at FROM notifications WHERE id = ${row.id}`,
    );
    assert.equal(stored?.dedup_key, `follow.received:${actor.hex}`);
    assert.equal(stored?.pushed_at, null);
  });

  it('writes no row when the recipient has inApp off for the kind', async () => {
    const recipient = await createUser(t);
    const patched = await t.request({
      method: 'PATCH',
      url: '/api/users/me/notifications/preferences',
      token: recipient.token,
      body: { 'follow.received': { inApp: false } },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal((await dispatchFollow(recipient)).outcome, 'suppressed');
    assert.equal((await feed(recipient)).meta.total, 0);
    // Other kinds still arrive.
    await t.services.areas.notifications.dispatcher.dispatch(
      recipient.id,
      'user.level.up',
      { level: 1, previousLevel: 0, experience: 100 },
      null,
    );
    assert.equal((await feed(recipient)).meta.total, 1);
  });

  it('inside the window refreshes only created_at of the unread row and keeps pushed_at', async () => {
    const recipient = await createUser(t);
    const first = await dispatchFollow(recipient);
    const pushedAt = new Date('2026-11-21T12:00:30.000Z');
    await t.deps.database.db.execute(
      sql`UPDATE notifications SET pushed_at = ${pushedAt.toISOString()}::timestamptz WHERE id = ${first.id}`,
    );
    t.clock.advanceMinutes(4);
    const second = await dispatchFollow(recipient);
    assert.deepEqual(second, { outcome: 'refreshed', id: first.id });
    const body = await feed(recipient);
    assert.equal(body.meta.total, 1);
    assert.equal(body.data[0].attributes.createdAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    const [stored] = await queryRows<{ pushed_at: Date }>(
      t.deps.database.db,
      sql`SELECT pushed_at FROM notifications WHERE id = ${first.id}`,
    );
    assert.equal(new Date(stored!.pushed_at).toISOString(), pushedAt.toISOString());
  });

  it('measures the window from the last refresh, and outside it inserts a new row', async () => {
    const recipient = await createUser(t);
    await dispatchFollow(recipient);
    t.clock.advanceMinutes(4);
    assert.equal((await dispatchFollow(recipient)).outcome, 'refreshed');
    t.clock.advanceMinutes(4); // 8 minutes after the first, 4 after the refresh
    assert.equal((await dispatchFollow(recipient)).outcome, 'refreshed');
    t.clock.advanceMinutes(5.5);
    const outside = await dispatchFollow(recipient);
    assert.equal(outside.outcome, 'inserted');
    assert.equal((await feed(recipient)).meta.total, 2);
    t.clock.advanceMinutes(1);
    assert.deepEqual(await dispatchFollow(recipient), { outcome: 'refreshed', id: outside.id });
    assert.equal((await feed(recipient)).meta.total, 2);
  });

  it('after the row is read, the same key inserts a new row', async () => {
    const recipient = await createUser(t);
    const first = await dispatchFollow(recipient);
    const read = await t.request({
      method: 'PATCH',
      url: `/api/users/me/notifications/${first.id}/read`,
      token: recipient.token,
    });
    assert.equal(read.statusCode, 200);
    t.clock.advanceMinutes(1);
    const second = await dispatchFollow(recipient);
    assert.equal(second.outcome, 'inserted');
    assert.notEqual(second.id, first.id);
    const body = await feed(recipient);
    assert.equal(body.meta.total, 2);
    assert.equal((await feed(recipient, '?filter=unread')).meta.total, 1);
  });

  it('different dedup keys or owners never merge', async () => {
    const recipient = await createUser(t);
    const other = await createUser(t);
    await dispatchFollow(recipient);
    await t.services.areas.notifications.dispatcher.dispatch(
      recipient.id,
      'follow.received',
      followData(other),
      dedupKeys.followReceived(other.id),
    );
    await dispatchFollow(other);
    assert.equal((await feed(recipient)).meta.total, 2);
    assert.equal((await feed(other)).meta.total, 1);
  });

  it('50 simultaneous dispatches with one dedup key leave one unread row', async () => {
    const recipient = await createUser(t);
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => dispatchFollow(recipient)));
    assert.equal(outcomes.filter((outcome) => outcome.outcome === 'inserted').length, 1);
    assert.equal(new Set(outcomes.map((outcome) => outcome.id)).size, 1);
    const body = await feed(recipient, '?filter=unread');
    assert.equal(body.meta.total, 1);
  });

  it("joins the caller's transaction: a rollback removes the notification", async () => {
    const recipient = await createUser(t);
    await assert.rejects(
      t.services.platform.transactions.run(async () => {
        await t.services.areas.notifications.dispatcher.dispatch(
          recipient.id,
          'follow.received',
          followData(actor),
          null,
        );
        throw new Error('caller fails after dispatch');
      }),
      /caller fails/,
    );
    assert.equal((await feed(recipient)).meta.total, 0);
  });
});
