/**
 * Two instances of the service on one database, each with the broadcast a deployment of the test
 * engine uses (Redis with REDIS_URL, else PostgreSQL NOTIFY, else in process on PGlite): a notification
 * made on one reaches a stream held on the other, a logout on one closes the stream on the other, and
 * the cap of 5 streams a user counts the streams of both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { openAnotherInstance, openTestDatabase } from '../../../../test/helpers/database.ts';
import { type OpenedStream, openEventStream } from '../../../../test/helpers/event-stream.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { instanceBroadcast } from '../../../../test/helpers/instance-broadcast.ts';
import { dispatchFollow } from '../../../../test/helpers/notification-dispatch.ts';
import { freePort } from '../../../../test/helpers/processes.ts';
import { waitFor } from '../../../../test/helpers/wait-for.ts';
import { LocalBroadcast } from '../../../adapters/broadcast/index.ts';

describe('notification streams across instances', () => {
  let a: TestApp;
  let b: TestApp;
  const urls = new Map<TestApp, string>();
  let databases: Array<{ close(): Promise<void> }>;
  const opened: OpenedStream[] = [];
  before(async () => {
    const shared = new LocalBroadcast();
    const database = await openTestDatabase();
    const second = await openAnotherInstance(database);
    databases = [second, database];
    a = await createTestApp({ database, deps: { broadcast: await instanceBroadcast(database, shared) } });
    b = await createTestApp({
      database: second.database,
      clock: a.clock,
      deps: { broadcast: await instanceBroadcast(second.database, shared) },
    });
    for (const t of [a, b]) {
      const port = await freePort();
      await t.app.listen({ port, host: '127.0.0.1' });
      urls.set(t, `http://127.0.0.1:${port}`);
    }
  });
  after(async () => {
    for (const stream of opened) stream.close();
    for (const t of [b, a]) await t.close();
    for (const database of databases) await database.close();
  });

  const open = async (t: TestApp, user: TestUser) => {
    const stream = await openEventStream(urls.get(t)!, { token: user.token });
    opened.push(stream);
    assert.equal(stream.status, 200);
    await stream.next('the first count', (event) => event.event === 'unreadCount');
    return stream;
  };

  it('sends a notification made on instance A to a stream held on instance B', async () => {
    const user = await createUser(a);
    const actor = await createUser(a, { nickname: 'Ana' });
    const stream = await open(b, user);
    const { id } = await dispatchFollow(a, user, actor, 'Ana');
    const sent = await stream.next('the notification on B', (event) => event.event === 'notification');
    assert.equal(sent.data.id, id);
    await waitFor('the count on B', () =>
      stream.events.some((event) => event.event === 'unreadCount' && event.data.attributes.count === 1),
    );
    // A read on A reaches B as the new count.
    await a.request({ method: 'POST', url: '/api/users/me/notifications/mark-all-read', token: user.token });
    await waitFor('the count after the read', () => stream.events.at(-1)?.data.attributes.count === 0);
  });

  it('closes the stream on B when its session is revoked on A', async () => {
    const user = await createUser(a);
    const stream = await open(b, user);
    assert.equal((await a.request({ method: 'POST', url: '/api/auth/logout', token: user.token })).statusCode, 204);
    await waitFor('the end of the stream on B', () => stream.ended);
  });

  it("counts the user's streams on both instances against the cap of 5, closing the oldest wherever it is", async () => {
    const user = await createUser(a);
    const streams = [await open(a, user), await open(a, user), await open(a, user)];
    streams.push(await open(b, user), await open(b, user));
    assert.deepEqual(
      streams.map((stream) => stream.ended),
      [false, false, false, false, false],
    );
    streams.push(await open(b, user));
    await waitFor('the oldest, on A, closed', () => streams[0]!.ended);
    streams.push(await open(b, user));
    await waitFor('the next oldest, on A, closed', () => streams[1]!.ended);
    assert.deepEqual(
      streams.map((stream) => stream.ended),
      [true, true, false, false, false, false, false],
    );
  });
});
