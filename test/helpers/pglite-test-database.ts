/**
 * PGlite test databases: the migrations run once into a template data directory, and each test file
 * opens a copy of it from disk, as the server opens its DATA_DIR (about 1 s, where loading a dump
 * into PGlite's in-memory file system took 3). Everything lives in a folder of the user's own in the
 * temporary directory:
 * - `template-<PGlite version>-<migrations fingerprint>`, with a `complete` file once migrated and
 *   shut down cleanly (so a copy opens without recovery); its time is touched at each use;
 * - `building-<pid>-…` while a file builds the template, `copy-<pid>-…` for each open database,
 *   `removing-<pid>-…` while something is deleted; those of processes that have ended are removed
 *   at the next open (a file whose process died, by Ctrl-C or a crash, never closed its database).
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate, migrationsFingerprint } from '../../src/platform/db/migrate.ts';
import { openPglite } from '../../src/platform/db/pglite-database.ts';

/** One folder per user: another user's leftovers in a shared /tmp are neither read nor deleted. */
const root = join(tmpdir(), `tms-pglite-${process.getuid?.() ?? 'tests'}`);
const completeMarker = 'complete';
const dayMs = 86_400_000;

/** The installed PGlite's version: a data directory written by one version may not open in another. */
const pgliteVersion = (): string =>
  JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@electric-sql/pglite')), 'utf8')).version;

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Deletes a directory without ever leaving it half there under its name: renamed first, then removed. */
function remove(path: string): void {
  const doomed = join(root, `removing-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    renameSync(path, doomed);
    rmSync(doomed, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // Gone already, or another process is removing it; what stays is removed at a later open.
  }
}

/** The pid a `building-`, `copy-` or `removing-` directory was named after, or null. */
function ownerOf(name: string): number | null {
  const match = /^(?:building|copy|removing)-(\d+)-/.exec(name);
  return match ? Number(match[1]) : null;
}

/** What ended processes left, and templates unused for a day (other migrations, other versions). */
function removeLeftovers(current: string): void {
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    const owner = ownerOf(name);
    if (owner !== null) {
      if (!isRunning(owner)) remove(path);
      continue;
    }
    if (path === current || !name.startsWith('template-')) continue;
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && stats.mtimeMs < Date.now() - dayMs) remove(path);
  }
}

/** The migrated template, built by whichever file gets there first (two at once: both build, one keeps its own). */
async function templateDirectory(): Promise<string> {
  const template = join(root, `template-${pgliteVersion()}-${migrationsFingerprint()}`);
  const complete = () => existsSync(join(template, completeMarker));
  if (complete()) return template;
  // Without its marker a template is damaged (half removed by something else). Asked again once it is
  // known to exist: another file may have renamed its finished template in since the first look.
  if (existsSync(template) && !complete()) remove(template);
  const building = mkdtempSync(join(root, `building-${process.pid}-`));
  const database = await openPglite(building);
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  writeFileSync(join(building, completeMarker), '');
  try {
    renameSync(building, template);
  } catch (error) {
    // Another file finished first: its template is as good as ours.
    if (!existsSync(join(template, completeMarker))) throw error;
    remove(building);
  }
  return template;
}

let folderChecked = false;

/**
 * The user's folder, made private; one that another user made (or a link put there) is refused rather
 * than read. Also removes what the layouts before this one left in the temporary directory. Once a
 * process: a test file may open several databases.
 */
function ownFolder(): void {
  if (folderChecked) return;
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const stats = lstatSync(root);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) {
    throw new Error(`${root} is not a folder of this user's own: remove it, or set TMPDIR elsewhere`);
  }
  if ((stats.mode & 0o077) !== 0) chmodSync(root, 0o700); // made before it was made private
  for (const name of readdirSync(tmpdir())) {
    if (!/^tms-pglite-(template-|test-|[0-9a-f]+\.tar\.gz$)/.test(name)) continue;
    const path = join(tmpdir(), name);
    if (lstatSync(path, { throwIfNoEntry: false })?.uid === uid) rmSync(path, { recursive: true, force: true });
  }
  folderChecked = true;
}

export async function openPgliteTestDatabase(): Promise<Database & { client: PGlite }> {
  ownFolder();
  const template = await templateDirectory();
  const now = new Date();
  utimesSync(template, now, now); // in use, so not pruned as a day-old template
  removeLeftovers(template);
  const dir = mkdtempSync(join(root, `copy-${process.pid}-`));
  cpSync(template, dir, { recursive: true });
  const database = await openPglite(dir);
  return {
    ...database,
    close: async () => {
      await database.close();
      remove(dir);
    },
  };
}

/**
 * A migrated PGlite data directory at `destination` (a copy of the template), for a test that starts
 * the real server as a child process on it (DATA_DIR/db) without waiting for every migration.
 */
export async function copyMigratedDataDirectory(destination: string): Promise<void> {
  ownFolder();
  cpSync(await templateDirectory(), destination, { recursive: true });
}
