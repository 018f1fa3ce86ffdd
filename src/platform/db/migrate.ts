/**
 * Forward-only SQL migrations from `migrations/*.sql`, applied in file-name order at start-up under
 * the migrations lock (on a connection of its own), each file in its own transaction. Re-running is a no-op; a file edited after
 * it was applied stops start-up, since the database no longer matches the repository.
 * A `migrations/NNNN_name.ts` file is a data migration: a module exporting `up(conn)`, run the same way
 * (its checksum is that of the file's text), e.g. to load reference data from an npm package.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Database, RawConnection } from './database.ts';

export const migrationsDir = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export interface MigrationFile {
  name: string;
  /** The file's text (SQL, or the source of a `.ts` data migration). */
  sql: string;
  checksum: string;
  /** A `.ts` data migration's path, imported to run its `up`. */
  path?: string;
}

/** What a `.ts` migration exports. */
export interface DataMigration {
  up(conn: RawConnection): Promise<void>;
}

export function readMigrations(dir = migrationsDir): MigrationFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql') || name.endsWith('.ts'))
    .sort()
    .map((name) => {
      const path = `${dir}/${name}`;
      const sql = readFileSync(path, 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      return name.endsWith('.ts') ? { name, sql, checksum, path } : { name, sql, checksum };
    });
}

/** A short fingerprint of every migration, for caching migrated test databases. */
export function migrationsFingerprint(files = readMigrations()): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.name).update(file.checksum);
  return hash.digest('hex').slice(0, 12);
}

export async function migrate(database: Database, files = readMigrations()): Promise<string[]> {
  return database.withMigrationLock(async (conn) => {
    await conn.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Map(
      (await conn.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations')).map(
        (row) => [row.name, row.checksum],
      ),
    );
    const done: string[] = [];
    for (const file of files) {
      const known = applied.get(file.name);
      if (known === file.checksum) continue;
      if (known !== undefined) {
        throw new Error(`migration ${file.name} was changed after it was applied; add a new migration instead`);
      }
      const data = file.path ? ((await import(pathToFileURL(file.path).href)) as DataMigration) : null;
      await conn.transaction(async (tx) => {
        if (data) await data.up(tx);
        else await tx.exec(file.sql);
        await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file.name, file.checksum]);
      });
      done.push(file.name);
    }
    return done;
  });
}
