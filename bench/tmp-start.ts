import '../src/platform/boot/fast-package-resolution.ts';

const t0 = performance.now();
const lap = (what: string) =>
  console.log(
    what,
    Math.round(performance.now() - t0),
    'ms',
    Math.round(process.memoryUsage.rss() / 1048576),
    'MB',
    Math.round(process.memoryUsage().heapUsed / 1048576),
    'heap',
    Math.round(process.memoryUsage().external / 1048576),
    'ext',
  );
const { buildApp } = await import('../src/app.ts');
lap('import app');
const { loadConfig } = await import('../src/config.ts');
const { createDeps } = await import('../src/deps.ts');
const { migrate } = await import('../src/platform/db/migrate.ts');
const { openDatabase } = await import('../src/platform/db/open-database.ts');
const { MemoryRateLimitStore } = await import('../src/platform/http/rate-limit.ts');
const { systemClock } = await import('../src/platform/clock.ts');
const pino = (await import('pino')).default;
lap('imports');
const config = loadConfig({ ...process.env, DATA_DIR: '/tmp/warm', LOG_LEVEL: 'silent' });
const database = await openDatabase(config);
lap('open db');
await migrate(database);
lap('migrate');
const logger = pino({ level: 'silent' });
const deps = await createDeps(config, database, new MemoryRateLimitStore(systemClock), logger);
const { app } = await buildApp(deps, { loggerInstance: logger });
lap('build app');
await app.listen({ port: 0 });
lap('listen');
await app.inject({ method: 'GET', url: '/api/ping' });
lap('first ping');
await new Promise((r) => setTimeout(r, 3000));
lap('idle');
process.exit(0);
