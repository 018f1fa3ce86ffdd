/**
 * Reaching the data from the CLI itself (CONTRACT.md, "CLI and a running server"):
 * - DATABASE_URL set: PostgreSQL, migrated if needed (under the same advisory lock as the server);
 * - PGlite: the files in DATA_DIR/db, opened (and migrated) here. This happens only when no server
 *   answers on the command socket, since a running server owns the files (see command-server.ts).
 */
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { openPglite } from '../platform/db/pglite-database.ts';
import { openPostgres } from '../platform/db/postgres-database.ts';
import type { CliContext } from './command.ts';

export async function openCliDatabase(config: Config): Promise<{ database: Database; via: CliContext['via'] }> {
  if (config.databaseUrl !== null) {
    const database = openPostgres(config.databaseUrl, 2, config.databaseMigrationUrl ?? config.databaseUrl);
    await migrate(database);
    return { database, via: 'postgres' };
  }
  const database = await openPglite(join(config.dataDir, 'db'));
  await migrate(database);
  return { database, via: 'pglite-files' };
}
