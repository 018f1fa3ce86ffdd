/**
 * Reaching the data from the CLI (CONTRACT.md, "CLI and a running server"):
 * - DATABASE_URL set: PostgreSQL, migrated if needed (under the same advisory lock as the server);
 * - PGlite and a server running: through the Unix socket that server serves in DATA_DIR, since the
 *   server owns the files;
 * - PGlite and no server answering there: the files in DATA_DIR/db, opened (and migrated) here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { cliSocketPath, cliSocketPort } from '../platform/db/cli-socket.ts';
import type { Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { openPglite } from '../platform/db/pglite-database.ts';
import { openPostgres } from '../platform/db/postgres-database.ts';
import type { CliContext } from './command.ts';

/** A connection string for the server's socket: pg takes a directory as host and looks for `.s.PGSQL.<port>` in it. */
export const serverSocketUrl = (dataDir: string) =>
  `postgres://postgres@/postgres?host=${encodeURIComponent(dataDir)}&port=${cliSocketPort}`;

/** True when a server answers on the socket; false when there is no socket or nobody listens on it. */
async function serverAnswers(dataDir: string): Promise<boolean> {
  if (!existsSync(cliSocketPath(dataDir))) return false;
  const client = new pg.Client({ connectionString: serverSocketUrl(dataDir) });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ENOENT') return false; // a socket file left by a server that died
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function openCliDatabase(config: Config): Promise<{ database: Database; via: CliContext['via'] }> {
  if (config.databaseUrl !== null) {
    const database = openPostgres(config.databaseUrl, 2);
    await migrate(database);
    return { database, via: 'postgres' };
  }
  if (await serverAnswers(config.dataDir)) {
    return { database: openPostgres(serverSocketUrl(config.dataDir), 1), via: 'server-socket' };
  }
  const database = await openPglite(join(config.dataDir, 'db'));
  await migrate(database);
  return { database, via: 'pglite-files' };
}
