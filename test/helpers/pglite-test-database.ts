/**
 * PGlite test databases: each test file opens a copy of a migrated template data directory from disk,
 * as the server opens its DATA_DIR (about 1 s, where loading a dump into PGlite's in-memory file system
 * took 3). The template is the one `npm ci` made (DATABASE_TEMPLATE_DIR) when it is for these
 * migrations, else one made here once (src/platform/db/pglite-template.ts). What is made here lives in
 * a folder of the user's own in the temporary directory:
 * - `pglite-<PGlite version>-<migrations fingerprint>`, the template; its time is touched at each use;
 * - `building-<pid>-…` while a file builds the template, `copy-<pid>-…` for each open database,
 *   `removing-<pid>-…` while something is deleted; those of processes that have ended are removed
 *   at the next open (a file whose process died, by Ctrl-C or a crash, never closed its database).
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { databaseTemplateDirOf } from '../../src/config.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { openPglite } from '../../src/platform/db/pglite-database.ts';
import {
  copyPgliteTemplate,
  ensurePgliteTemplate,
  findPgliteTemplate,
  removeDirectory,
} from '../../src/platform/db/pglite-template.ts';

/** One folder per user: another user's leftovers in a shared /tmp are neither read nor deleted. */
const root = join(tmpdir(), `tms-pglite-${process.getuid?.() ?? 'tests'}`);
const dayMs = 86_400_000;

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const remove = (path: string) => removeDirectory(path, root);

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
    if (path === current || !/^(pglite|template)-/.test(name)) continue; // template-: the layout before
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && stats.mtimeMs < Date.now() - dayMs) remove(path);
  }
}

/** The install's template when it is for these migrations, else this folder's (made by the first file to need it). */
async function templateDirectory(): Promise<string> {
  const installed = databaseTemplateDirOf();
  return (installed === null ? null : findPgliteTemplate(installed)) ?? ensurePgliteTemplate(root);
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
  if (template.startsWith(root)) utimesSync(template, now, now); // in use, so not pruned as a day-old template
  removeLeftovers(template);
  const dir = join(root, `copy-${process.pid}-${Math.random().toString(36).slice(2)}`);
  copyPgliteTemplate(template, dir);
  const database = await openPglite(dir);
  return {
    ...database,
    close: async () => {
      await database.close();
      remove(dir);
    },
  };
}

/** A folder holding a template for these migrations: what a server's DATABASE_TEMPLATE_DIR names. */
export async function migratedTemplateFolder(): Promise<string> {
  ownFolder();
  return dirname(await templateDirectory());
}

/**
 * A migrated PGlite data directory at `destination` (a copy of the template), for a test that starts
 * the real server as a child process on it (DATA_DIR/db) without waiting for every migration.
 */
export async function copyMigratedDataDirectory(destination: string): Promise<void> {
  ownFolder();
  copyPgliteTemplate(await templateDirectory(), destination);
}
