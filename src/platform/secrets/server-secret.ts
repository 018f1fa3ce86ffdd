/**
 * Secrets the server makes for itself when the operator gives none: generated once, kept in
 * DATA_DIR/secrets/<name>.key (0600, in a 0700 folder) and read back on every start, so what they sign
 * stays stable across restarts. Several instances that do not share DATA_DIR must be given the value.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const serverSecretPath = (dataDir: string, name: string) => join(dataDir, 'secrets', `${name}.key`);

/** The configured value, else the one kept in DATA_DIR (created on first use, atomically). */
export function serverSecret(dataDir: string, name: string, configured: string | null): string {
  if (configured !== null) return configured;
  const path = serverSecretPath(dataDir, name);
  const existing = readSecret(path);
  if (existing !== null) return existing;
  const folder = join(dataDir, 'secrets');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  // Written aside, then linked into place: link fails if another process won the race, and then its
  // value is the one everybody uses.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  const created = readSecret(path);
  if (created === null) throw new Error(`${path} is empty`);
  return created;
}

/** serverSecret read (or made) on first use only: building the app (the routes script, a CLI command) writes nothing. */
export function lazyServerSecret(dataDir: string, name: string, configured: string | null): () => string {
  let secret: string | null = configured;
  return () => {
    secret ??= serverSecret(dataDir, name, null);
    return secret;
  };
}

function readSecret(path: string): string | null {
  try {
    const value = readFileSync(path, 'utf8').trim();
    return value === '' ? null : value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
