/**
 * With PGlite the server process owns the database files, so it also serves them over the
 * PostgreSQL wire protocol on a Unix socket in DATA_DIR; the CLI connects there while a server runs.
 */
import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export const cliSocketPort = 5432;
/** pg clients look for `<dir>/.s.PGSQL.<port>` when given a directory as host. */
export const cliSocketPath = (dataDir: string) => join(dataDir, `.s.PGSQL.${cliSocketPort}`);

export async function startCliSocket(client: PGlite, dataDir: string): Promise<{ stop(): Promise<void> }> {
  const path = cliSocketPath(dataDir);
  if (existsSync(path)) unlinkSync(path); // left by a process that did not stop cleanly
  const server = new PGLiteSocketServer({ db: client, path, maxConnections: 4 });
  await server.start();
  return {
    stop: async () => {
      await server.stop();
      if (existsSync(path)) unlinkSync(path);
    },
  };
}
