/**
 * npm run bench: runs every bench/*.bench.ts one after the other, each in its own process (so one
 * scenario's memory does not skew the next), or only those whose name contains the first argument.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts') && name.includes(filter))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const run = spawnSync(process.execPath, [join(benchDir, file)], {
    stdio: 'inherit',
    env: { ...process.env, RATE_LIMITS: 'off', LOG_LEVEL: 'silent' },
  });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
