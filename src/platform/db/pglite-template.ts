/**
 * A migrated PGlite data directory, made once and copied wherever an empty one is wanted. Making one
 * is PostgreSQL's initdb and every migration, the geography's reference load among them: about 14 s of
 * CPU, most of a first start. `npm ci` makes one (scripts/database-template.ts, npm's postinstall) into
 * DATABASE_TEMPLATE_DIR, so that a first start on an empty DATA_DIR copies it (about 130 MB) and opens
 * it as a warm start would; the test databases are copies of one too (test/helpers).
 *
 * A template is named after PGlite's version (a data directory written by one version may not open in
 * another) and the migrations' fingerprint (their names and checksums): one made for other migrations
 * or another PGlite is never used, and a start without a matching template migrates as before. What a
 * migration makes does not depend on the instance (no secret, no random value kept: its ids are fixed
 * or name-based), so one template serves any number of data directories.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { migrate, migrationsFingerprint } from './migrate.ts';
import { openPglite } from './pglite-database.ts';

/** Written into a template once it is migrated and shut down cleanly (so a copy opens without recovery). */
const completeMarker = 'complete';

/** The installed PGlite's version. */
function pgliteVersion(): string {
  const manifest = new URL('../package.json', import.meta.resolve('@electric-sql/pglite'));
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The name of the template for this PGlite and these migrations, in any templates' folder. */
export function pgliteTemplateName(): string {
  return `pglite-${pgliteVersion()}-${migrationsFingerprint()}`;
}

/** The complete template for this PGlite and these migrations in `root`, or null. */
export function findPgliteTemplate(root: string): string | null {
  const template = join(root, pgliteTemplateName());
  return existsSync(join(template, completeMarker)) ? template : null;
}

/**
 * The template in `root`, made first when missing: migrated in a `building-<pid>-…` folder, then
 * renamed to its name, so that no one ever finds half a template under it. Two processes at once both
 * build, and the second keeps the first's.
 */
export async function ensurePgliteTemplate(root: string): Promise<string> {
  const found = findPgliteTemplate(root);
  if (found !== null) return found;
  const template = join(root, pgliteTemplateName());
  mkdirSync(root, { recursive: true });
  // Without its marker a template is damaged (half removed by something else). Its marker asked for
  // again: another process may have renamed its finished template in since the first look.
  if (existsSync(template) && !existsSync(join(template, completeMarker))) removeDirectory(template, root);
  const building = mkdtempSync(join(root, `building-${process.pid}-`));
  try {
    const database = await openPglite(building);
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
    writeFileSync(join(building, completeMarker), '');
    renameSync(building, template);
  } catch (error) {
    removeDirectory(building, root);
    if (findPgliteTemplate(root) === null) throw error;
  }
  return template;
}

/**
 * Copies the template into `destination`, which must not exist or be empty: into a sibling
 * `<name>.copying-<pid>` first, then renamed, so that a start stopped half way leaves no half
 * database under the name (the next copy removes what such a start left).
 */
export function copyPgliteTemplate(template: string, destination: string): void {
  const parent = dirname(destination);
  const partial = `${basename(destination)}.copying-`;
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    if (name.startsWith(partial)) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const copying = join(parent, `${partial}${process.pid}`);
  cpSync(template, copying, { recursive: true, filter: (source) => basename(source) !== completeMarker });
  if (existsSync(destination)) rmSync(destination, { recursive: true }); // empty (checked by the caller)
  renameSync(copying, destination);
}

/** Whether `dir` holds nothing (or is not there): a data directory to make, not to open. */
export function isEmptyDirectory(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** Removes every template in `root` but `keep` (other migrations, other PGlite versions). */
export function removeOtherPgliteTemplates(root: string, keep: string): void {
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    if (name.startsWith('pglite-') && join(root, name) !== keep) removeDirectory(join(root, name), root);
  }
}

/** Renamed (within `root`) first, then removed: never half there under its name. */
export function removeDirectory(path: string, root: string): void {
  const doomed = join(root, `removing-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    renameSync(path, doomed);
    rmSync(doomed, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // Gone already, or another process is removing it.
  }
}
