/**
 * Each broadcast delivers a message to every subscriber, on this instance and others, and reports a
 * gap whenever its subscription (re)connects: Redis pub/sub (with REDIS_URL), PostgreSQL
 * LISTEN/NOTIFY (with DATABASE_URL, including a listener whose backend is killed), and in-process.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { createEmptyPostgresDatabase } from '../../../test/helpers/database.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { openPostgres, type PostgresDatabase } from '../../platform/db/postgres-database.ts';
import type { Broadcast } from './broadcast.ts';
import { LocalBroadcast } from './local-broadcast.ts';
import { PostgresBroadcast } from './postgres-broadcast.ts';
import { RedisBroadcast } from './redis-broadcast.ts';

const logger = pino({ level: 'silent' });

/** What one subscriber saw. */
function listen(broadcast: Broadcast, channel: string) {
  const seen = { messages: [] as string[], gaps: 0 };
  broadcast.subscribe(
    channel,
    (message) => seen.messages.push(message),
    () => {
      seen.gaps += 1;
    },
  );
  return seen;
}

describe('LocalBroadcast', () => {
  it('delivers to every subscriber of the channel in this process, and to no other channel', async () => {
    const broadcast = new LocalBroadcast();
    const a = listen(broadcast, 'sessions.revoked');
    const b = listen(broadcast, 'sessions.revoked');
    const other = listen(broadcast, 'something.else');
    await broadcast.publish('sessions.revoked', 'user-1');
    assert.deepEqual(a.messages, ['user-1']);
    assert.deepEqual(b.messages, ['user-1']);
    assert.deepEqual(other.messages, []);
    await broadcast.close();
  });
});

describe('RedisBroadcast', { skip: process.env.REDIS_URL ? false : 'needs REDIS_URL' }, () => {
  const prefix = `test-${randomBytes(4).toString('hex')}:`;
  const instances: RedisBroadcast[] = [];
  after(() => Promise.all(instances.map((instance) => instance.close())));

  it('reaches the other instance, reporting a gap when each subscription connects', async () => {
    const url = process.env.REDIS_URL!;
    const one = new RedisBroadcast(url, logger, prefix);
    const two = new RedisBroadcast(url, logger, prefix);
    instances.push(one, two);
    const seenByOne = listen(one, 'sessions.revoked');
    const seenByTwo = listen(two, 'sessions.revoked');
    await waitFor('both subscriptions', () => seenByOne.gaps > 0 && seenByTwo.gaps > 0);
    await one.publish('sessions.revoked', 'user-7');
    await waitFor('the message on both', () => seenByOne.messages.length > 0 && seenByTwo.messages.length > 0);
    assert.deepEqual(seenByTwo.messages, ['user-7']);
    assert.deepEqual(seenByOne.messages, ['user-7']);
  });
});

describe('PostgresBroadcast', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('reaches the other instance, and reconnects (with a gap) when its listening backend is killed', async () => {
    const scratch = await createEmptyPostgresDatabase(process.env.DATABASE_URL!);
    cleanups.push(scratch.drop);
    const open = () => {
      const database: PostgresDatabase = openPostgres(scratch.url, 2);
      const broadcast = new PostgresBroadcast(database.pool, scratch.url, logger);
      cleanups.push(async () => {
        await broadcast.close();
        await database.close();
      });
      return { database, broadcast };
    };
    const one = open();
    const two = open();
    const seenByTwo = listen(two.broadcast, 'sessions.revoked');
    await waitFor('the subscription', () => seenByTwo.gaps === 1);
    await one.broadcast.publish('sessions.revoked', 'user-1');
    await waitFor('the first message', () => seenByTwo.messages.length === 1);

    await one.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await waitFor('the reconnection', () => seenByTwo.gaps === 2);
    await one.broadcast.publish('sessions.revoked', 'user-2');
    await waitFor('the message after reconnecting', () => seenByTwo.messages.length === 2);
    assert.deepEqual(seenByTwo.messages, ['user-1', 'user-2']);
  });
});
