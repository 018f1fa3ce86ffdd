import type { Logger } from 'pino';
import type { Database } from '../../platform/db/database.ts';
import { isPostgres } from '../../platform/db/postgres-database.ts';
import type { Broadcast } from './broadcast.ts';
import { LocalBroadcast } from './local-broadcast.ts';
import { PostgresBroadcast } from './postgres-broadcast.ts';

/** Redis when REDIS_URL is set (ioredis is loaded only then); else PostgreSQL's LISTEN/NOTIFY; on PGlite (one process) in-process. */
export async function createBroadcast(
  config: { redisUrl: string | null; databaseUrl: string | null; databaseMigrationUrl: string | null },
  database: Database,
  logger: Logger,
): Promise<Broadcast> {
  if (config.redisUrl !== null) {
    const { RedisBroadcast } = await import('./redis-broadcast.ts');
    return new RedisBroadcast(config.redisUrl, logger);
  }
  if (isPostgres(database) && config.databaseUrl !== null) {
    return new PostgresBroadcast(database.pool, config.databaseMigrationUrl ?? config.databaseUrl, logger);
  }
  return new LocalBroadcast();
}
