/**
 * The broadcast a real deployment of the test engine would use, one per app instance: Redis when
 * REDIS_URL is set, PostgreSQL LISTEN/NOTIFY on PostgreSQL, else one in-process broadcast shared by
 * the instances of the test. Channels carry a per-process prefix so parallel test files never hear
 * each other.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { type Broadcast, type LocalBroadcast, PostgresBroadcast } from '../../src/adapters/broadcast/index.ts';
import { RedisBroadcast } from '../../src/adapters/broadcast/redis-broadcast.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { isPostgres } from '../../src/platform/db/postgres-database.ts';
import { postgresUrlOf } from './database.ts';

const logger = pino({ level: 'silent' });
const prefix = `test-${randomBytes(4).toString('hex')}.`;

export async function instanceBroadcast(database: Database, shared: LocalBroadcast): Promise<Broadcast> {
  if (process.env.REDIS_URL) return new RedisBroadcast(process.env.REDIS_URL, logger, prefix);
  if (isPostgres(database)) return new PostgresBroadcast(database.pool, await postgresUrlOf(database), logger, prefix);
  return shared;
}
