/**
 * The server once its database is opening (src/server.ts): migrate, build the app, listen, then the
 * job queue once the first request is answered; stop cleanly on SIGTERM/SIGINT: readiness off,
 * SHUTDOWN_DELAY_SECONDS still serving, then no new connections and the requests in flight drained,
 * then the areas' work and the job runs, then the rest.
 */
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { startCommandServer } from './cli/command-server.ts';
import type { Config } from './config.ts';
import { createDeps } from './deps.ts';
import { firstAnswer } from './platform/boot/first-answer.ts';
import { collectStartupGarbage } from './platform/boot/startup-garbage.ts';
import { systemClock } from './platform/clock.ts';
import type { Database } from './platform/db/database.ts';
import { migrate } from './platform/db/migrate.ts';
import { MemoryRateLimitStore } from './platform/http/memory-rate-limit-store.ts';
import { startMetricsServer } from './platform/metrics/metrics-server.ts';
import { stopAreas } from './services.ts';

/** How long the job queue waits for the first answer before starting anyway (an idle server). */
const jobsWaitForFirstAnswerMs = 1_000;

export async function serve(config: Config, logger: Logger, database: Database): Promise<void> {
  const applied = await migrate(database);
  if (applied.length > 0) logger.info({ event: 'db.migrated', applied }, `applied ${applied.length} migrations`);

  const rateLimitStore = config.redisUrl
    ? new (await import('./platform/http/redis-rate-limit-store.ts')).RedisRateLimitStore(config.redisUrl, { logger })
    : new MemoryRateLimitStore(systemClock);
  const deps = await createDeps(config, database, rateLimitStore, logger);
  const { app, services } = await buildApp(deps, { loggerInstance: logger });
  await app.listen({ host: config.host, port: config.port });
  let stopping = false;
  // The job queue starts once the first request is answered (or a second after listening, if none
  // comes): pg-boss's modules and its statements (seconds on PGlite, whose one connection the requests
  // share) no longer delay the first answers. Readiness stays false until it has started, as before.
  const jobsStarted = firstAnswer(app.server, jobsWaitForFirstAnswerMs)
    .then(() => (stopping ? undefined : services.platform.jobs.start()))
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
