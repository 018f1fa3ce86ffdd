#!/usr/bin/env node
// Runs every *.test.ts file under src/ and test/ with Node's own test runner (TypeScript run natively by Node 24).
// Each file runs in its own process with its own database, so files run in parallel.
// Usage: npm test [-- path/or/filter ...]  (arguments narrow the set of files by substring)
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, sep } from 'node:path';

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const isBrowserTest = (file) => file.startsWith(join('test', 'browser') + sep);
const filters = process.argv.slice(2);
const files = ['src', 'test']
  .flatMap((dir) => findTests(dir))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  // The browser tests first: the longest files, which would otherwise finish alone at the end.
  .sort((a, b) => Number(isBrowserTest(b)) - Number(isBrowserTest(a)) || a.localeCompare(b));
if (files.length === 0) {
  console.error(`no test file matches ${filters.join(' ')}`);
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(2, availableParallelism()));
// Each file's process starts as the server does (src/main.ts): the compile cache on and the
// module-resolution hook registered before anything else loads (about 1.5 s less per file that
// imports the application). The runner passes these flags on to every file's process.
const boot = ['compile-cache.ts', 'fast-package-resolution.ts'].flatMap((name) => [
  '--import',
  new URL(`../src/platform/boot/${name}`, import.meta.url).href,
]);
const child = spawn(
  process.execPath,
  [...boot, '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  {
    stdio: 'inherit',
    env: { ...process.env, APP_ENV: 'test', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
