/**
 * Where Node's compile cache lives: NODE_COMPILE_CACHE when set, else the system's temporary
 * directory, as `module.enableCompileCache()` chooses; null when NODE_DISABLE_COMPILE_CACHE turns it off.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function compileCacheDirectory(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.NODE_DISABLE_COMPILE_CACHE) return null;
  return env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache');
}
