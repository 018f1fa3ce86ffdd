/**
 * The live notification stream over a real socket, as a client reads it: its headers and first events,
 * live notifications in the reader's locale, the replay after a reconnect with and without
 * Last-Event-ID, refreshed, read and deleted notifications, bad ids, the session's end, the cap of 5
 * streams a user and a flood of openings, the web cookie, and the server's stop.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { type OpenedStream, openEventStream } from '../../../../test/helpers/event-stream.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { dispatchFollow, dispatchLevelUp } from '../../../../test/helpers/notification-dispatch.ts';
import { freePort } from '../../../../test/helpers/processes.ts';
import { waitFor } from '../../../../test/helpers/wait-for.ts';

const feed = '/api/users/me/notifications';

describe('the notification stream', () => {
  let t: TestApp;
  let base: string;
  let actor: TestUser;
  const opened: OpenedStream[] = [];
  before(async () => {
    t = await createTestApp();
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    base = `http://127.0.0.1:${port}`;
    actor = await createUser(t, { nickname: 'Ana' });
  });
  after(async () => {
    for (const stream of opened) stream.close();
    await t.close();
  });

  const open = async (options: Parameters<typeof openEventStream>[1]) => {
    const stream = await openEventStream(base, options);
    opened.push(stream);
    return stream;
  };
  const follow = (recipient: TestUser, dedupKey: string | null = null) =>
    dispatchFollow(t, recipient, actor, 'Ana', dedupKey);
  const levelUp = (recipient: TestUser, level: number) => dispatchLevelUp(t, recipient, level);
  const notifications = (stream: OpenedStream) => stream.events.filter((event) => event.event === 'notification');
  const counts = (stream: OpenedStream) =>
    stream.events.filter((event) => event.event === 'unreadCount').map((event) => event.data.attributes.count);

  it('refuses a missing or unknown token (401), and a Last-Event-ID that is not an id (400)', async () => {
    assert.equal((await open({})).status, 401);
    assert.equal((await open({ token: 'not-a-token' })).status, 401);
    const user = await createUser(t);
    const bad = await open({ token: user.token, lastEventId: 'yesterday' });
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.body).errors[0].code, 'invalidLastEventId');
  });

  it('answers an event stream for proxies (no buffering, no store), with retry, then the unread count', async () => {
    const user = await createUser(t);
    await follow(user);
    const stream = await open({ token: user.token });
    assert.equal(stream.status, 200);
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    assert.equal(stream.headers['x-accel-buffering'], 'no');
    assert.equal(stream.headers['cache-control'], 'no-store');
    const first = await stream.next('the unread count', (event) => event.event === 'unreadCount');
    assert.equal(stream.retry, 3000);
    assert.deepEqual(first.data, { type: 'notificationUnreadCount', id: user.id, attributes: { count: 1 } });
    assert.match(first.id ?? '', /^\d+-[0-9a-f]{8}$/);
    assert.deepEqual(notifications(stream), [], 'nothing replayed without a Last-Event-ID');
  });

  it('sends a new notification as the feed shows it, in the reader locale, then the new count', async () => {
    const user = await createUser(t);
    const stream = await open({ token: user.token, locale: 'fr-FR' });
    await stream.next('the first count', (event) => event.event === 'unreadCount');
    const { id } = await follow(user);
    const sent = await stream.next('the notification', (event) => event.event === 'notification');
    const shown = await t.request({
      method: 'GET',
      url: feed,
      token: user.token,
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.deepEqual(sent.data, shown.json.data[0]);
    assert.equal(sent.data.id, id);
    assert.equal(sent.data.attributes.locale, 'fr-FR');
    await waitFor('the count of 1', () => counts(stream).includes(1));
    assert.deepEqual(counts(stream), [0, 1]);
  });

  it('replays what a reconnecting client missed, in order, after its Last-Event-ID; without one, only the count', async () => {
    const user = await createUser(t);
    const first = await open({ token: user.token });
    await follow(user);
    await first.next('the live one', (event) => event.event === 'notification');
    await waitFor('its count', () => counts(first).includes(1));
    const lastSeen = first.lastEventId()!;
    first.close();
    const missed = [];
    for (const level of [2, 3, 4]) missed.push((await levelUp(user, level)).id);

    const resumed = await open({ token: user.token, lastEventId: lastSeen });
    await waitFor('the count after the replay', () => counts(resumed).includes(4));
    assert.deepEqual(
      notifications(resumed).map((event) => event.data.id),
      missed,
      'exactly the missed ones, oldest first',
    );
    assert.deepEqual(
      notifications(resumed).map((event) => event.data.attributes.data.level),
      [2, 3, 4],
    );
    const ids = resumed.events.map((event) => event.id!);
    assert.equal(new Set(ids.filter((_, i) => resumed.events[i]!.event === 'notification')).size, 3);

    const fresh = await open({ token: user.token });
    await waitFor('the count', () => counts(fresh).length > 0);
    assert.deepEqual(notifications(fresh), []);
    assert.deepEqual(counts(fresh), [4]);

    // The query parameter does what the header does, for clients that cannot send one.
    const byQuery = await open({
      token: user.token,
      path: `/api/users/me/notifications/stream?lastEventId=${lastSeen}`,
    });
    await waitFor('the replay by query', () => counts(byQuery).includes(4));
    assert.deepEqual(
      notifications(byQuery).map((event) => event.data.id),
      missed,
    );
  });

  it('sends a refreshed notification again with its new createdAt, and a read or deleted one as the new count', async () => {
    const user = await createUser(t);
    const stream = await open({ token: user.token });
    await stream.next('the first count', (event) => event.event === 'unreadCount');
    const { id } = await follow(user, `follow:${actor.id}`);
    const before = await stream.next('the notification', (event) => event.event === 'notification');
    t.clock.advance(60_000);
    const refreshed = await follow(user, `follow:${actor.id}`);
    assert.equal(refreshed.outcome, 'refreshed');
    await waitFor('the refreshed one', () => notifications(stream).length === 2);
    const again = notifications(stream)[1]!;
    assert.equal(again.data.id, id);
    assert.ok(again.data.attributes.createdAt > before.data.attributes.createdAt, 'its new createdAt');
    assert.notEqual(again.id, before.id);

    const other = await levelUp(user, 2);
    await waitFor('a count of 2', () => counts(stream).includes(2));
    await t.request({ method: 'PATCH', url: `${feed}/${id}/read`, token: user.token });
    await waitFor('the count after the read', () => counts(stream).at(-1) === 1);
    await t.request({ method: 'DELETE', url: `${feed}/${other.id}`, token: user.token });
    await waitFor('the count after the deletion', () => counts(stream).at(-1) === 0);
    assert.deepEqual(
      notifications(stream).map((event) => event.data.id),
      [id, id, other.id],
      'a read or deleted notification is not sent again',
    );
  });

  it("treats another user's event id as none, and an id older than the feed keeps as its start", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const ids = [(await levelUp(user, 2)).id, (await levelUp(user, 3)).id];
    const theirs = await open({ token: other.token });
    const theirId = (await theirs.next('their count', (event) => event.event === 'unreadCount')).id!;
    const mixed = await open({ token: user.token, lastEventId: theirId.replace(/^\d+/, '0') });
    await waitFor('the count', () => counts(mixed).length > 0);
    assert.deepEqual(notifications(mixed), [], "another user's id: nothing replayed");

    const myTag = (await mixed.next('my id', () => true)).id!.split('-')[1];
    const oldest = await open({ token: user.token, lastEventId: `0-${myTag}` });
    await waitFor('the replay from the oldest kept', () => counts(oldest).length > 0);
    assert.deepEqual(
      notifications(oldest).map((event) => event.data.id),
      ids,
    );
  });

  it('ends the stream when its session is revoked', async () => {
    const user = await createUser(t);
    const stream = await open({ token: user.token });
    await stream.next('the count', (event) => event.event === 'unreadCount');
    assert.equal((await t.request({ method: 'POST', url: '/api/auth/logout', token: user.token })).statusCode, 204);
    await waitFor('the end of the stream', () => stream.ended);
    assert.equal((await open({ token: user.token })).status, 401, 'and the token opens no other');
  });

  it('keeps at most 5 streams a user, closing the oldest', async () => {
    const user = await createUser(t);
    const streams: OpenedStream[] = [];
    for (let i = 0; i < 6; i++) {
      const stream = await open({ token: user.token });
      await stream.next('the count', (event) => event.event === 'unreadCount');
      streams.push(stream);
    }
    await waitFor('the oldest closed', () => streams[0]!.ended);
    assert.deepEqual(
      streams.map((stream) => stream.ended),
      [true, false, false, false, false, false],
    );
    await levelUp(user, 2);
    for (const stream of streams.slice(1)) await stream.next('the live one', (event) => event.event === 'notification');
  });

  it('holds the cap when many streams open at once, with no 500', async () => {
    const user = await createUser(t);
    const streams = await Promise.all(Array.from({ length: 60 }, () => open({ token: user.token })));
    assert.deepEqual([...new Set(streams.map((stream) => stream.status))], [200]);
    await waitFor('at most 5 left open', () => streams.filter((stream) => !stream.ended).length === 5);
    await levelUp(user, 2);
    for (const stream of streams.filter((stream) => !stream.ended))
      await stream.next('the live one', (event) => event.event === 'notification');
  });

  it("takes the web sign-in cookie (the pages' EventSource)", async () => {
    const user = await createUser(t);
    const stream = await open({ cookie: `tm_session=${user.token}` });
    assert.equal(stream.status, 200);
    const count = await stream.next('the count', (event) => event.event === 'unreadCount');
    assert.equal(count.data.id, user.id);
  });
});

describe('a flood of stream openings (RATE_LIMITS=on)', () => {
  it('refuses openings past 30 a minute a user with 429, keeps 5 open and no more in memory, never a 500', async () => {
    const t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${port}`;
    const user = await createUser(t);
    const streams: OpenedStream[] = [];
    const statuses = new Map<number, number>();
    try {
      // 10,000 openings by one token, 250 at a time.
      for (let batch = 0; batch < 40; batch++) {
        const answered = await Promise.all(
          Array.from({ length: 250 }, () => openEventStream(base, { token: user.token })),
        );
        for (const stream of answered) {
          statuses.set(stream.status, (statuses.get(stream.status) ?? 0) + 1);
          if (stream.status === 200) streams.push(stream);
          else stream.close();
        }
      }
      assert.deepEqual(Object.fromEntries(statuses), { 200: 30, 429: 9970 });
      await waitFor('5 left open', () => streams.filter((stream) => !stream.ended).length === 5);
      assert.equal(t.services.areas.notifications.streams.size, 5, 'the instance keeps the 5 open, no more');
    } finally {
      for (const stream of streams) stream.close();
      await t.close();
    }
  });
});

describe('the notification stream when the server stops', () => {
  it('ends the open streams so the server can close', async () => {
    const t = await createTestApp();
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    const user = await createUser(t);
    const stream = await openEventStream(`http://127.0.0.1:${port}`, { token: user.token });
    await stream.next('the count', (event) => event.event === 'unreadCount');
    await t.close();
    await waitFor('the end of the stream', () => stream.ended);
  });
});
