/**
 * Forward-only SQL migrations from `migrations/*.sql`, applied in file-name order at start-up under
 * the migrations lock (on a connection of its own), each file in its own transaction. Re-running is a no-op; a file edited after
 * it was applied stops start-up, since the database no longer matches the repository.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

export const migrationsDir = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = migrationsDir): MigrationFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => {
      const sql = readFileSync(`${dir}/${name}`, 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
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
      await conn.transaction(async (tx) => {
        await tx.exec(file.sql);
        await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file.name, file.checksum]);
      });
      done.push(file.name);
    }
    return done;
  });
}
