/**
 * A fresh, migrated database for each test file, on PostgreSQL when DATABASE_URL is set and on
 * embedded PGlite otherwise.
 * - PostgreSQL: the migrations run once into a template database named after their fingerprint;
 *   each file then gets `CREATE DATABASE … TEMPLATE` (fast) and drops it when done.
 * - PGlite: the migrations run once into a template data directory; each file opens a copy of it
 *   from disk, as the server opens its DATA_DIR (pglite-test-database.ts).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, LockKey } from '../../src/platform/db/database.ts';
import { migrate, migrationsFingerprint } from '../../src/platform/db/migrate.ts';
import { openPostgres } from '../../src/platform/db/postgres-database.ts';
import { queryRows } from '../../src/platform/db/rows.ts';
import { openPgliteTestDatabase } from './pglite-test-database.ts';

export const testEngine = (): 'postgres' | 'pglite' => (process.env.DATABASE_URL ? 'postgres' : 'pglite');

/** A describe's options for tests that need several connections at once (races): PGlite has one. */
export const onPostgresOnly = { skip: testEngine() !== 'postgres' && 'one connection on PGlite' };

function urlWithDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function openPostgresTestDatabase(serverUrl: string): Promise<Database> {
  const template = `tms_template_${migrationsFingerprint()}`;
  const name = `tms_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(serverUrl, async (admin) => {
    // One process builds the template; the others wait on the lock, then find it ready.
    await admin.query('SELECT pg_advisory_lock($1)', [LockKey.testTemplate]);
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (!rowCount) {
        const building = `${template}_building_${process.pid}`;
        await admin.query(`DROP DATABASE IF EXISTS ${building}`);
        await admin.query(`CREATE DATABASE ${building}`);
        const database = openPostgres(urlWithDatabase(serverUrl, building), 2);
        try {
          await migrate(database);
        } finally {
          await database.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
      }
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [LockKey.testTemplate]);
    }
  });
  const database = openPostgres(urlWithDatabase(serverUrl, name), 5);
  return {
    ...database,
    close: async () => {
      await database.close();
      await withAdminClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * An empty database of its own on the DATABASE_URL server (nothing migrated), for tests that start
 * the real server or CLI as a child process and must see them create everything.
 */
export async function createEmptyPostgresDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tms_empty_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  return {
    url: urlWithDatabase(serverUrl, name),
    drop: () =>
      withAdminClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  return url ? openPostgresTestDatabase(url) : openPgliteTestDatabase();
}

/**
 * The same database as `database` seen as another server instance would see it: on PostgreSQL a pool
 * of its own (separate sessions); on PGlite the same single session, since one process owns the files.
 */
/** The URL of a PostgreSQL test database (what its instances connect to). */
export async function postgresUrlOf(database: Database): Promise<string> {
  const [row] = await queryRows<{ name: string }>(database.db, sql`SELECT current_database() AS name`);
  return urlWithDatabase(process.env.DATABASE_URL!, row!.name);
}

export async function openAnotherInstance(database: Database): Promise<{ database: Database; close(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || database.engine !== 'postgres') return { database, close: async () => {} };
  const [row] = await queryRows<{ name: string }>(database.db, sql`SELECT current_database() AS name`);
  const other = openPostgres(urlWithDatabase(serverUrl, row!.name), 3);
  return { database: other, close: () => other.close() };
}

/** The URL of the migrated template database on the DATABASE_URL server, made first if needed. */
export async function postgresTemplateUrl(): Promise<string> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('postgresTemplateUrl needs DATABASE_URL');
  await (await openPostgresTestDatabase(serverUrl)).close();
  return urlWithDatabase(serverUrl, `tms_template_${migrationsFingerprint()}`);
}
