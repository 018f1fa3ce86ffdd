import { mkdirSync } from 'node:fs';
import v8 from 'node:v8';
import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle } from 'drizzle-orm/pglite';
import { type Database, type Db, processLocks, type RawConnection } from './database.ts';

/** The extensions our migrations create; PGlite must load them when it opens. */
const pgliteExtensions = { citext, cube, earthdistance, pg_trgm, unaccent };

function rawConnection(client: PGlite | Transaction): RawConnection {
  return {
    exec: async (sqlText) => {
      await client.exec(sqlText);
    },
    query: async <T>(sqlText: string, params: unknown[] = []) => (await client.query<T>(sqlText, params)).rows,
    transaction: (fn) =>
      'transaction' in client ? client.transaction((tx) => fn(rawConnection(tx))) : fn(rawConnection(client)),
  };
}

/**
 * PostgreSQL's memory settings for the embedded engine, which serves one process: PGlite's defaults
 * (128 MB of shared buffers and more) sized for a server cost about 130 MB of resident memory at idle.
 */
export const pgliteMemorySettings = [
  'shared_buffers = 16MB',
  'work_mem = 4MB',
  'maintenance_work_mem = 32MB',
  'wal_buffers = 1MB',
  'temp_buffers = 2MB',
];

/**
 * PGlite's 9 MB WebAssembly module compiled by one of V8's worker threads instead of all of them: each
 * thread that compiles keeps what it allocated in a C heap arena of its own, and an idle warm server
 * held about 55 MB more resident memory for it (measured; docs/benchmarks.md, Start-up). The flag
 * holds for every WebAssembly compiled in the process afterwards (PGlite's is the only one);
 * JavaScript's compilation and garbage collection keep every worker thread.
 */
function compileWebAssemblyOnOneThread(): void {
  v8.setFlagsFromString('--wasm-num-compilation-tasks=1');
}

/** Opens PGlite in `dir` (created if missing), or in memory when dir is null. */
export async function openPglite(
  dir: string | null,
  options: Partial<PGliteOptions> = {},
): Promise<Database & { client: PGlite }> {
  if (dir !== null) mkdirSync(dir, { recursive: true });
  compileWebAssemblyOnOneThread();
  const client = await PGlite.create({
    dataDir: dir ?? undefined,
    extensions: pgliteExtensions,
    postgresqlconf: pgliteMemorySettings,
    ...options,
  });
  return pgliteDatabase(client);
}

function pgliteDatabase(client: PGlite): Database & { client: PGlite } {
  const db = drizzle({ client }) as unknown as Db;
  return {
    engine: 'pglite',
    db,
    client,
    withMigrationLock: (fn) => processLocks.run('migrations', () => fn(rawConnection(client))),
    // pg-boss's own PGlite adapter, loaded with pg-boss when the job queue starts.
    jobsDatabase: async () => (await import('pg-boss')).fromPglite(client),
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}
