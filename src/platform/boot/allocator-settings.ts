/**
 * glibc's allocator told to give freed memory back to the system, for the embedded engine (no
 * DATABASE_URL). Opening PGlite compiles its 9 MB WebAssembly module and V8 later tiers up its hot
 * functions, on worker threads whose C heap arenas glibc kept after they were freed: an idle warm
 * server held 266 to 272 MB resident, 225 to 234 with these settings (docs/benchmarks.md, Start-up).
 * Fixed thresholds (128 kB) turn off glibc's dynamic ones, which rise to 32 MB after a large block is
 * freed and then keep everything under them.
 *
 * glibc reads them from the environment when the process starts, so a server started without them
 * replaces itself (`process.execve`: the same pid, arguments and flags) with one that has them, before
 * loading anything: one more Node bootstrap, about 0.05 s. An operator's own `MALLOC_*` settings are
 * kept as they are (any of them set: no replacement), and `MALLOC_ARENA_MAX` and the like still apply.
 * Imported first by src/main.ts; Linux only.
 *
 * The new image gets NODE_COMPILE_CACHE (the directory compile-cache.ts would enable anyway), so Node
 * reads src/main.ts and the boot modules from the cache too: otherwise their types are stripped before
 * any module can enable it, which loads Node's type stripper (amaro, about 0.1 s of CPU) a second time.
 */
import { compileCacheDirectory } from './compile-cache-directory.ts';

const settings = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

const embedded = !process.env.DATABASE_URL;
const operatorChose = Object.keys(process.env).some((name) => name.startsWith('MALLOC_'));

if (embedded && !operatorChose && process.platform === 'linux' && typeof process.execve === 'function') {
  const compileCache = compileCacheDirectory();
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...settings,
    ...(compileCache === null ? {} : { NODE_COMPILE_CACHE: compileCache }),
  });
}
