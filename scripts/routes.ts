/**
 * Prints every registered route as `METHOD /path`, with path parameters written `{param}` as in the
 * interface's route table (docs/interface-routes.tsv), one a line. Builds the app without a database
 * or a port. `--missing` prints instead the interface's routes not served yet, with their auth and
 * section, and a count.
 */
import { readFileSync } from 'node:fs';
import { LocalBroadcast } from '../src/adapters/broadcast/index.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { AppDeps } from '../src/deps.ts';
import { systemClock } from '../src/platform/clock.ts';
import type { Database } from '../src/platform/db/database.ts';
import { MemoryRateLimitStore } from '../src/platform/http/memory-rate-limit-store.ts';

// Route registration never touches the database or sends mail; these fail loudly if that changes.
const offline = (what: string) =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error(`the routes script has no ${what}`);
      },
    },
  );

const deps: AppDeps = {
  config: loadConfig({ ...process.env, LOG_LEVEL: 'silent' }),
  database: {
    engine: 'pglite',
    db: offline('database'),
    withMigrationLock: offline,
    jobsDatabase: offline,
    close: async () => {},
  } as unknown as Database,
  clock: systemClock,
  mailer: offline('mailer') as AppDeps['mailer'],
  storage: offline('storage') as AppDeps['storage'],
  push: offline('push') as AppDeps['push'],
  webPush: null,
  broadcast: new LocalBroadcast(),
  rateLimitStore: new MemoryRateLimitStore(systemClock),
};

const { app, routes } = await buildApp(deps, { logger: false });
await app.ready();
await app.close();
const served = [...new Set(routes.map((route) => `${route.method} ${route.path}`))];
if (process.argv.includes('--missing')) {
  const table = readFileSync(new URL('../docs/interface-routes.tsv', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const missing = table.filter((line) => !served.includes(line.split('\t').slice(0, 2).join(' ')));
  console.log(missing.join('\n'));
  console.log(`${missing.length} of ${table.length} interface routes are not served yet`);
} else {
  console.log(served.join('\n'));
}
