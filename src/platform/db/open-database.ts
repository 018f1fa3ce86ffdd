import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite-database.ts';
import { openPostgres } from './postgres-database.ts';

/** PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR/db. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseMigrationUrl' | 'databasePoolSize' | 'dataDir'>,
): Promise<Database> {
  if (config.databaseUrl !== null)
    return openPostgres(config.databaseUrl, config.databasePoolSize, config.databaseMigrationUrl ?? config.databaseUrl);
  return openPglite(join(config.dataDir, 'db'));
}
