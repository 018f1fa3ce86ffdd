/**
 * Prints every registered route as `METHOD /path`, with path parameters written `{param}` as in
 * ../shared/spec/endpoints.tsv, one a line. Builds the app without a database or a port.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { AppDeps } from '../src/deps.ts';
import { systemClock } from '../src/platform/clock.ts';
import type { Database } from '../src/platform/db/database.ts';
import { MemoryRateLimitStore } from '../src/platform/http/rate-limit.ts';

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
    withLock: offline,
    tryWithLock: offline,
    close: async () => {},
  } as unknown as Database,
  clock: systemClock,
  mailer: offline('mailer') as AppDeps['mailer'],
  storage: offline('storage') as AppDeps['storage'],
  push: offline('push') as AppDeps['push'],
  rateLimitStore: new MemoryRateLimitStore(systemClock),
};

const { app, routes } = await buildApp(deps, { logger: false });
await app.ready();
await app.close();
console.log([...new Set(routes.map((route) => `${route.method} ${route.path}`))].join('\n'));
