/**
 * A scratch database for one benchmark, on the engine the environment names: PostgreSQL when
 * DATABASE_URL is set (a database created for the run, dropped after), else embedded PGlite in a
 * temporary DATA_DIR (the server process opens it after this one has closed it). Migrated, then
 * seeded by the caller's SQL (generate_series, never the API).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { databaseTemplateDirOf } from '../../src/config.ts';
import type { Database, RawConnection } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPglite } from '../../src/platform/db/pglite-database.ts';
import { copyPgliteTemplate, ensurePgliteTemplate } from '../../src/platform/db/pglite-template.ts';
import { openPostgres } from '../../src/platform/db/postgres-database.ts';

export interface ScratchDatabase {
  engine: 'postgres' | 'pglite';
  /** What the server process needs to open it. */
  serverEnv: Record<string, string>;
  /** The PostgreSQL URL of the scratch database (pgbench runs its own tables beside ours). */
  url: string | null;
  drop(): Promise<void>;
}

const withDatabase = (url: string, database: string) =>
  Object.assign(new URL(url), { pathname: `/${database}` }).toString();

export async function createScratchDatabase(
  seed: (conn: RawConnection) => Promise<void>,
  /** afterSeed: run with the seeded database open, through the service's own code (search-documents.ts). */
  options: { migrate?: boolean; afterSeed?: (database: Database) => Promise<void> } = {},
): Promise<ScratchDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-bench-'));
  if (options.migrate === false) {
    // Empty: the server creates (PGlite) or migrates (PostgreSQL) it when it starts.
    const url = serverUrl ? await createEmptyDatabase(serverUrl) : null;
    return {
      engine: serverUrl ? 'postgres' : 'pglite',
      serverEnv: url ? { DATABASE_URL: url, DATA_DIR: dataDir } : { DATA_DIR: dataDir },
      url,
      drop: async () => {
        if (serverUrl) await dropDatabase(serverUrl);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!serverUrl) {
    // A copy of the install's migrated template (made first if missing), as a first start would open.
    const templates = databaseTemplateDirOf();
    if (templates !== null) copyPgliteTemplate(await ensurePgliteTemplate(templates), join(dataDir, 'db'));
    const database = await openPglite(join(dataDir, 'db'));
    await migrate(database);
    await database.withMigrationLock(seed);
    await options.afterSeed?.(database);
    await database.close();
    return {
      engine: 'pglite',
      serverEnv: { DATA_DIR: dataDir },
      url: null,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const url = await createEmptyDatabase(serverUrl);
  const database = openPostgres(url, 2);
  await migrate(database);
  await database.withMigrationLock(seed);
  await options.afterSeed?.(database);
  await database.close();
  // The seed's pages written out now, not by a checkpoint in the middle of the first scenario.
  await onServer(url, 'CHECKPOINT');
  return {
    engine: 'postgres',
    serverEnv: { DATABASE_URL: url, DATA_DIR: dataDir },
    url,
    drop: async () => {
      // BENCH_KEEP_DATABASE=1 keeps it, to read its plans with psql afterwards.
      if (process.env.BENCH_KEEP_DATABASE) console.log(`kept the scratch database ${scratchName}`);
      else await dropDatabase(serverUrl);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const scratchName = `tms_bench_${process.pid}`;

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

async function createEmptyDatabase(serverUrl: string): Promise<string> {
  await dropDatabase(serverUrl);
  await onServer(serverUrl, `CREATE DATABASE ${scratchName}`);
  return withDatabase(serverUrl, scratchName);
}

const dropDatabase = (serverUrl: string) => onServer(serverUrl, `DROP DATABASE IF EXISTS ${scratchName} WITH (FORCE)`);
