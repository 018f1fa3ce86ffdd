/**
 * The broadcast a real deployment of the test engine would use, one per app instance: Redis when
 * REDIS_URL is set, PostgreSQL LISTEN/NOTIFY on PostgreSQL, else one in-process broadcast shared by
 * the instances of the test. Channels carry a per-process prefix so parallel test files never hear
 * each other.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import {
  type Broadcast,
  type LocalBroadcast,
  LocalBroadcast as LocalBroadcastClass,
  PostgresBroadcast,
} from '../../src/adapters/broadcast/index.ts';
import { RedisBroadcast } from '../../src/adapters/broadcast/redis-broadcast.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { isPostgres } from '../../src/platform/db/postgres-database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { openAnotherInstance, openTestDatabase, postgresUrlOf } from './database.ts';

const logger = pino({ level: 'silent' });
const prefix = `test-${randomBytes(4).toString('hex')}.`;

export async function instanceBroadcast(database: Database, shared: LocalBroadcast): Promise<Broadcast> {
  if (process.env.REDIS_URL) return new RedisBroadcast(process.env.REDIS_URL, logger, prefix);
  if (isPostgres(database)) return new PostgresBroadcast(database.pool, await postgresUrlOf(database), logger, prefix);
  return shared;
}

/** A broadcast that loses every message, as a subscriber that was disconnected would. */
export class LosingBroadcast extends LocalBroadcastClass {
  override async publish(): Promise<void> {}
}

/**
 * Three test apps on one test database and one clock: `one` and `two` hear each other's broadcast (as
 * `instanceBroadcast` makes it), `lossy` hears nothing (its messages are lost both ways).
 */
export async function openBroadcastingInstances(): Promise<{
  one: TestApp;
  two: TestApp;
  lossy: TestApp;
  close(): Promise<void>;
}> {
  const shared = new LocalBroadcastClass();
  const database = await openTestDatabase();
  const secondDatabase = await openAnotherInstance(database);
  const thirdDatabase = await openAnotherInstance(database);
  const one = await createTestApp({ database, deps: { broadcast: await instanceBroadcast(database, shared) } });
  const two = await createTestApp({
    database: secondDatabase.database,
    clock: one.clock,
    deps: { broadcast: await instanceBroadcast(secondDatabase.database, shared) },
  });
  const lossy = await createTestApp({
    database: thirdDatabase.database,
    clock: one.clock,
    deps: { broadcast: new LosingBroadcast() },
  });
  return {
    one,
    two,
    lossy,
    async close() {
      for (const t of [lossy, two, one]) await t.close();
      for (const opened of [thirdDatabase, secondDatabase, database]) await opened.close();
    },
  };
}
