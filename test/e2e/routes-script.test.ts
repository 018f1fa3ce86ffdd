/**
 * `npm run routes` as a developer runs it: it builds the app without a database, prints every served
 * route, and with `--missing` the interface's routes not served yet. Both lists together are the
 * interface's table, with no route in both.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const routesScript = (...args: string[]) =>
  run(process.execPath, ['scripts/routes.ts', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent' } });

const interfaceRoutes = readFileSync(new URL('../../docs/interface-routes.tsv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t').slice(0, 2).join(' '));

describe('npm run routes', () => {
  it('lists the served routes, and with --missing the rest of the interface, without a database', async () => {
    const served = (await routesScript()).stdout.trim().split('\n');
    assert.ok(served.includes('GET /api/ping'));
    assert.ok(served.includes('GET /api/users/me/notifications'));

    const missingOutput = (await routesScript('--missing')).stdout.trim().split('\n');
    const summary = missingOutput.pop() ?? '';
    const missing = missingOutput.filter(Boolean).map((line) => line.split('\t').slice(0, 2).join(' '));
    assert.match(
      summary,
      new RegExp(`^${missing.length} of ${interfaceRoutes.length} interface routes are not served yet$`),
    );
    for (const route of missing) assert.ok(!served.includes(route), `${route} is served and listed as missing`);
    const servedFromInterface = interfaceRoutes.filter((route) => served.includes(route));
    assert.equal(servedFromInterface.length + missing.length, interfaceRoutes.length);
  });
});
