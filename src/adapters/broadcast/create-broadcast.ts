import type { Logger } from 'pino';
import type { Database } from '../../platform/db/database.ts';
import { isPostgres } from '../../platform/db/postgres-database.ts';
import type { Broadcast } from './broadcast.ts';
import { LocalBroadcast } from './local-broadcast.ts';
import { PostgresBroadcast } from './postgres-broadcast.ts';
import { RedisBroadcast } from './redis-broadcast.ts';

/** Redis when REDIS_URL is set; else PostgreSQL's LISTEN/NOTIFY; on PGlite (one process) in-process. */
export function createBroadcast(
  config: { redisUrl: string | null; databaseUrl: string | null; databaseMigrationUrl: string | null },
  database: Database,
  logger: Logger,
): Broadcast {
  if (config.redisUrl !== null) return new RedisBroadcast(config.redisUrl, logger);
  if (isPostgres(database) && config.databaseUrl !== null) {
    return new PostgresBroadcast(database.pool, config.databaseMigrationUrl ?? config.databaseUrl, logger);
  }
  return new LocalBroadcast();
}
