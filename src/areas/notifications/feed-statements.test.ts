/**
 * The feed's hot reads cost one statement each once the session is cached: the list (page and
 * counters together) and the unread count, each a named prepared statement on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { watchStatements } from '../../../test/helpers/statement-counter.ts';
import { encodeCursor } from '../../platform/db/keyset-cursor.ts';
import { feedPageStatements, unreadCountStatement } from './feed-statements.ts';
import { dedupKeys } from './kinds.ts';
import { notificationsKeyset } from './notifications.repository.ts';

describe('statements sent by the feed', () => {
  let t: TestApp;
  let owner: TestUser;
  let statements: ReturnType<typeof watchStatements>;
  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    const fans = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    for (const fan of fans) {
      await t.services.areas.notifications.dispatcher.dispatch(
        owner.id,
        'follow.received',
        { actorId: fan.id, actorUsername: fan.username, actorDisplayName: fan.username },
        dedupKeys.followReceived(fan.id),
      );
      t.clock.advance(1000);
    }
    // The maintenance state is re-read every second by a timer, beside the requests: stopped here
    // (the state stays known), so that only what a request sends is counted.
    t.services.platform.maintenance.unwatch();
    statements = watchStatements(t.deps.database);
  });
  after(async () => {
    statements.restore();
    await t.close();
  });

  // PGlite takes text and values (no names): recognise our statements by their text there.
  const byText = new Map(
    [...Object.values(feedPageStatements).flatMap(({ all, unread }) => [all, unread]), unreadCountStatement].map(
      (statement) => [statement.text, statement.name],
    ),
  );
  const sentNames = () =>
    statements.sent.map((sent) => {
      if (t.deps.database.engine === 'postgres') assert.ok(sent.name, `sent unprepared: ${sent.text}`);
      return sent.name ?? byText.get(sent.text) ?? sent.text;
    });
  const get = (url: string) => t.request({ method: 'GET', url, token: owner.token });
  it('lists a page with its total in one prepared statement, on every kind of page', async () => {
    await get('/api/auth/me'); // the session is now cached
    await get('/api/users/me/notifications'); // and so are the owner's keyword filters (none)
    statements.reset();
    const first = await get('/api/users/me/notifications?limit=2');
    assert.equal(first.statusCode, 200);
    assert.equal(first.json.data.length, 2);
    assert.equal(first.json.meta.total, 3);
    assert.deepEqual(sentNames(), ['notifications.feed.first']);

    statements.reset();
    const next = await get(first.json.links.next);
    assert.equal(next.json.data.length, 1);
    assert.equal(next.json.meta.total, 3);
    const previous = await get(next.json.links.prev);
    assert.deepEqual(
      previous.json.data.map((item: { id: string }) => item.id),
      first.json.data.map((item: { id: string }) => item.id),
    );
    const unread = await get('/api/users/me/notifications?filter=unread');
    assert.equal(unread.json.meta.total, 3);
    const unreadNext = await get('/api/users/me/notifications?filter=unread&limit=1');
    assert.equal(unreadNext.json.data.length, 1);
    assert.deepEqual(sentNames(), [
      'notifications.feed.after',
      'notifications.feed.before',
      'notifications.feed.first.unread',
      'notifications.feed.first.unread',
    ]);
  });

  it('gives an empty page its total too, still in one statement', async () => {
    const all = await get('/api/users/me/notifications?limit=3');
    const last = all.json.data.at(-1);
    const pastTheEnd = encodeCursor(notificationsKeyset.name, [new Date(last.attributes.createdAt), last.id]);
    statements.reset();
    const beyond = await get(`/api/users/me/notifications?cursor=${pastTheEnd}`);
    assert.equal(beyond.statusCode, 200);
    assert.deepEqual(beyond.json.data, []);
    assert.equal(beyond.json.meta.total, 3);
    assert.equal(statements.sent.length, 1);
  });

  it('counts unread in one prepared statement', async () => {
    statements.reset();
    const count = await get('/api/users/me/notifications/unread-count');
    assert.equal(count.json.data.attributes.count, 3);
    assert.deepEqual(sentNames(), ['notifications.unreadCount']);
  });
});
