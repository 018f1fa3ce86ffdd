/**
 * The server (started by src/main.ts): read config, open the database, migrate, listen, start jobs;
 * stop cleanly on SIGTERM/SIGINT: readiness off, SHUTDOWN_DELAY_SECONDS still serving, then no new
 * connections and the requests in flight drained, then the areas' work and the job runs, then the rest.
 */
import pino from 'pino';
import { buildApp } from './app.ts';
import { startCommandServer } from './cli/command-server.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDeps } from './deps.ts';
import { collectStartupGarbage } from './platform/boot/startup-garbage.ts';
import { systemClock } from './platform/clock.ts';
import { migrate } from './platform/db/migrate.ts';
import { openDatabase } from './platform/db/open-database.ts';
import { MemoryRateLimitStore } from './platform/http/memory-rate-limit-store.ts';
import { startMetricsServer } from './platform/metrics/metrics-server.ts';
import { stopAreas } from './services.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.problems.join('; ')}`);
      process.exit(78);
    }
    throw error;
  }
  const logger = pino({ level: config.logLevel });
  const database = await openDatabase(config, logger);
  const applied = await migrate(database);
  if (applied.length > 0) logger.info({ event: 'db.migrated', applied }, `applied ${applied.length} migrations`);

  const rateLimitStore = config.redisUrl
    ? new (await import('./platform/http/redis-rate-limit-store.ts')).RedisRateLimitStore(config.redisUrl, { logger })
    : new MemoryRateLimitStore(systemClock);
  const deps = await createDeps(config, database, rateLimitStore, logger);
  const { app, services } = await buildApp(deps, { loggerInstance: logger });
  await app.listen({ host: config.host, port: config.port });
  // pg-boss creates or migrates its schema in the background (seconds on PGlite): answer requests meanwhile.
  const jobsStarted = services.platform.jobs
    .start()
    .catch((error) => logger.error({ event: 'jobs.startFailed', err: error }, 'job queue did not start'));
  // Then, at the first quiet moment, the garbage of starting up is given back (startup-garbage.ts).
  void collectStartupGarbage([jobsStarted]).then((result) =>
    logger.info(
      { event: 'server.startupGarbage', ...result },
      result.collected ? 'start-up garbage collected' : 'start-up garbage left: the server was busy',
    ),
  );
  // With PGlite this process owns the files, so it runs operator commands for the CLI.
  const commandServer =
    database.engine === 'pglite'
      ? await startCommandServer(config.dataDir, { config, ...services, via: 'server' }, app.log)
      : null;
  // The metrics on a port of their own, never the public one (docs/operations.md, Metrics).
  const metricsServer = config.metrics
    ? await startMetricsServer(services.platform.metrics, config.metrics, logger)
    : null;
  logger.info(
    {
      event: 'server.started',
      engine: database.engine,
      url: config.publicUrl,
      node: process.version,
      metricsPort: metricsServer?.port ?? null,
    },
    'ready',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Readiness off first: load balancers take the instance out of rotation during the delay, while
    // it still serves what they send; then it stops accepting and waits for the requests in flight.
    services.platform.readiness.beginDraining();
    const delaySeconds = config.shutdownDelaySeconds;
    logger.info({ event: 'server.stopping', signal, delaySeconds }, 'not ready; draining requests');
    const force = setTimeout(() => process.exit(1), (delaySeconds + 15) * 1000);
    force.unref();
    if (delaySeconds > 0) await new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000));
    await app.close(); // stops accepting, waits for requests in flight
    // The areas' work still running after its answer first (a forgot-password's mail), so the mail it
    // files can still queue its job run; then the queue, whose runs finish what they hold.
    await stopAreas(services);
    await services.platform.jobs.stop();
    await commandServer?.stop();
    await metricsServer?.close();
    await deps.rateLimitStore.close?.();
    await deps.broadcast.close();
    await database.close();
    logger.info({ event: 'server.stopped' }, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
