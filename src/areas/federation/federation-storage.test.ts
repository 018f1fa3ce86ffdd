/**
 * Fedify's key-value store and message queue on the service's database: what Fedify relies on
 * (expiry, prefixes, compare-and-swap; delays, ordering keys, at-most-one handler per message) holds
 * on both engines, across two instances sharing the database, with messages sealed at rest.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openAnotherInstance } from '../../../test/helpers/database.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DatabaseKvStore } from './database-kv-store.ts';
import { DatabaseMessageQueue, maxHandlerAttempts } from './database-message-queue.ts';
import { FederationSecrets } from './federation-secrets.ts';
import { KvStoreRepository } from './kv-store.repository.ts';
import { QueueRepository } from './queue.repository.ts';

/** A duration as Fedify passes it (a Temporal.Duration: the store reads its total in milliseconds). */
const seconds = (n: number) =>
  ({
    total(unit: string) {
      assert.equal(unit, 'millisecond');
      return n * 1000;
    },
  }) as unknown as Temporal.Duration;

const secret = 'a-federation-secret-of-32-characters-or-more';

describe('federation storage', () => {
  let t: TestApp;
  let other: TestApp;
  let closeOther: () => Promise<void>;
  const wakes: number[] = [];

  before(async () => {
    t = await createTestApp({ env: { FEDERATION: 'on', FEDERATION_SECRET: secret } });
    const second = await openAnotherInstance(t.deps.database);
    other = await createTestApp({
      env: { FEDERATION: 'on', FEDERATION_SECRET: secret },
      database: second.database,
      clock: t.clock,
    });
    closeOther = second.close;
  });
  after(async () => {
    await other.close();
    await closeOther();
    await t.close();
  });

  const kvOf = (app: TestApp) =>
    new DatabaseKvStore({
      transactions: app.services.platform.transactions,
      repository: new KvStoreRepository(app.services.platform.transactions),
      clock: app.clock,
    });
  const queueOf = (app: TestApp) =>
    new DatabaseMessageQueue({
      repository: new QueueRepository(app.services.platform.transactions),
      secrets: new FederationSecrets(() => secret),
      clock: app.clock,
      logger: pino({ level: 'silent' }),
      wake: (delayMs) => wakes.push(delayMs),
      rejects: async () => false,
      deliverable: async () => true,
      health: app.services.areas.federation.deliveryHealth,
    });
  const notStopped = () => false;
  /** The drain report's counts of outgoing deliveries (none among these messages). */
  const noDeliveries = { rejected: 0, held: 0, givenUp: 0 };

  it('keeps values under keys of several parts, shared by the instances, until they expire', async () => {
    const kv = kvOf(t);
    await kv.set(['_fedify', 'remoteDocument', 'https://mastodon.example/users/ana'], { type: 'Person', n: 1 });
    await kv.set(['_fedify', 'idempotence', 'x'], true, { ttl: seconds(60) });
    assert.deepEqual(await kvOf(other).get(['_fedify', 'remoteDocument', 'https://mastodon.example/users/ana']), {
      type: 'Person',
      n: 1,
    });
    assert.equal(await kv.get(['_fedify', 'idempotence', 'x']), true);
    t.clock.advance(61_000);
    assert.equal(await kv.get(['_fedify', 'idempotence', 'x']), undefined, 'expired');
    await kv.set(['_fedify', 'publicKey', 'https://gone.example/users/x#main-key'], null);
    assert.equal(
      await kv.get(['_fedify', 'publicKey', 'https://gone.example/users/x#main-key']),
      null,
      'null is a value',
    );
    await kv.delete(['_fedify', 'remoteDocument', 'https://mastodon.example/users/ana']);
    assert.equal(await kv.get(['_fedify', 'remoteDocument', 'https://mastodon.example/users/ana']), undefined);
  });

  it('lists the entries under a prefix, and only those', async () => {
    const kv = kvOf(t);
    await kv.set(['list', 'a'], 1);
    await kv.set(['list', 'a', 'deeper'], 2);
    await kv.set(['list', 'ab'], 3);
    await kv.set(['lists'], 4);
    const listed = [];
    for await (const entry of kv.list(['list', 'a'])) listed.push(entry);
    listed.sort((x, y) => (x.value as number) - (y.value as number));
    assert.deepEqual(listed, [
      { key: ['list', 'a'], value: 1 },
      { key: ['list', 'a', 'deeper'], value: 2 },
    ]);
    const all = [];
    for await (const entry of kv.list(['list'])) all.push(entry.key);
    all.sort((x, y) => x.join('/').localeCompare(y.join('/')));
    assert.deepEqual(all, [
      ['list', 'a'],
      ['list', 'a', 'deeper'],
      ['list', 'ab'],
    ]);
  });

  it('compares and swaps: one of two racing writers wins', async () => {
    const kv = kvOf(t);
    assert.equal(await kv.cas(['breaker', 'host'], undefined, { failures: 1 }), true);
    assert.equal(await kv.cas(['breaker', 'host'], undefined, { failures: 9 }), false, 'present already');
    const outcomes = await Promise.all([
      kv.cas(['breaker', 'host'], { failures: 1 }, { failures: 2 }),
      kvOf(other).cas(['breaker', 'host'], { failures: 1 }, { failures: 3 }),
    ]);
    assert.deepEqual(outcomes.filter(Boolean).length, 1);
    assert.ok([2, 3].includes(((await kv.get(['breaker', 'host'])) as { failures: number }).failures));
  });

  it('runs messages once due, sealed at rest, and asks the job queue for a run', async () => {
    const queue = queueOf(t);
    const handled: unknown[] = [];
    const listening = new AbortController();
    void queue.listen((message) => void handled.push(message), { signal: listening.signal });
    wakes.length = 0;
    await queue.enqueue({ type: 'outbox', activity: 'first', keys: [{ privateKey: 'SECRET-JWK' }] });
    await queue.enqueue({ type: 'outbox', activity: 'later' }, { delay: seconds(30) });
    assert.deepEqual(wakes, [0, 30_000]);
    const stored = await queryRows<{ sealed: string }>(
      t.services.platform.transactions.db,
      sql`SELECT sealed_message AS sealed FROM federation_queue`,
    );
    assert.equal(stored.length, 2);
    for (const row of stored) assert.doesNotMatch(row.sealed, /SECRET-JWK|outbox/);
    assert.deepEqual(await queue.getDepth(), { queued: 2, ready: 1, delayed: 1 });

    assert.deepEqual(await queue.drain(notStopped), { handled: 1, failed: 0, dropped: 0, ...noDeliveries });
    assert.deepEqual(handled, [{ type: 'outbox', activity: 'first', keys: [{ privateKey: 'SECRET-JWK' }] }]);
    t.clock.advance(30_000);
    await queue.drain(notStopped);
    assert.deepEqual(handled.at(-1), { type: 'outbox', activity: 'later' });
    assert.deepEqual(await queue.getDepth(), { queued: 0, ready: 0, delayed: 0 });
    listening.abort();
    assert.deepEqual(await queue.drain(notStopped), { handled: 0, failed: 0, dropped: 0, ...noDeliveries });
  });

  it('runs the messages of one ordering key in order, a failed one retried with backoff before the next', async () => {
    const queue = queueOf(t);
    const handled: string[] = [];
    let failFirst = true;
    const listening = new AbortController();
    void queue.listen(
      (message) => {
        const { name } = message as { name: string };
        if (name === 'create' && failFirst) {
          failFirst = false;
          throw new Error('remote unreachable');
        }
        handled.push(name);
      },
      { signal: listening.signal },
    );
    await queue.enqueue({ name: 'create' }, { orderingKey: 'note-1' });
    await queue.enqueue({ name: 'delete' }, { orderingKey: 'note-1' });
    await queue.enqueue({ name: 'unrelated' });
    assert.deepEqual(await queue.drain(notStopped), { handled: 1, failed: 1, dropped: 0, ...noDeliveries });
    assert.deepEqual(handled, ['unrelated'], 'the Delete waits for its Create');
    t.clock.advance(15_000);
    await queue.drain(notStopped);
    assert.deepEqual(handled, ['unrelated', 'create', 'delete']);
    listening.abort();
  });

  it('drops a message whose handler keeps failing, after the last attempt', async () => {
    const queue = queueOf(t);
    let attempts = 0;
    const listening = new AbortController();
    void queue.listen(
      () => {
        attempts += 1;
        throw new Error('always');
      },
      { signal: listening.signal },
    );
    await queue.enqueue({ name: 'doomed' });
    let dropped = 0;
    for (let round = 0; round < maxHandlerAttempts + 2; round += 1) {
      dropped += (await queue.drain(notStopped)).dropped;
      t.clock.advance(60 * 60_000);
    }
    assert.equal(attempts, maxHandlerAttempts);
    assert.equal(dropped, 1);
    assert.deepEqual(await queue.getDepth(), { queued: 0, ready: 0, delayed: 0 });
    listening.abort();
  });

  it('hands each message to one instance only when two drain at once', async () => {
    const [first, second] = [queueOf(t), queueOf(other)];
    const seen: number[] = [];
    const listening = new AbortController();
    for (const queue of [first, second])
      void queue.listen((message) => void seen.push((message as { n: number }).n), { signal: listening.signal });
    await first.enqueueMany(Array.from({ length: 20 }, (_, n) => ({ n })));
    const [a, b] = await Promise.all([first.drain(notStopped), second.drain(notStopped)]);
    assert.equal(a.handled + b.handled, 20);
    assert.deepEqual(
      [...seen].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, n) => n),
    );
    listening.abort();
  });
});
