/** Builds the platform and every area's services, in the registry's order. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { AuditLog } from '../audit/audit-log.ts';
import { CacheRegistry } from '../cache/cache-registry.ts';
import { databaseHealth } from '../db/database-health.ts';
import { isPostgres } from '../db/postgres-database.ts';
import { Transactions } from '../db/transactions.ts';
import { AfterCommitRetriesRepository } from '../events/after-commit-retries.repository.ts';
import { AfterCommitRetries } from '../events/after-commit-retries.ts';
import { EventBus } from '../events/domain-events.ts';
import { ExportRegistry } from '../exports/export-registry.ts';
import { Readiness } from '../health/readiness.ts';
import { everyMinutes, JobRunner } from '../jobs/jobs.ts';
import { MailOutboxRepository } from '../mail-outbox/mail-outbox.repository.ts';
import { type MailDelivery, MailOutbox } from '../mail-outbox/mail-outbox.ts';
import { messageIdDomain, OutboxSender } from '../mail-outbox/outbox-sender.ts';
import { MaintenanceMode } from '../maintenance/maintenance-mode.ts';
import { countedPushes } from '../metrics/counted-push.ts';
import { Metrics } from '../metrics/metrics.ts';
import { registerPlatformMetrics } from '../metrics/platform-metrics.ts';
import { Stats } from '../stats/stats.ts';
import type { AnyAreaModule, AreaServices, Platform } from './area-module.ts';

export interface PlatformOptions {
  /** How filed mail leaves after its commit (mail-outbox.ts); `queue` unless said otherwise. */
  mailDelivery?: MailDelivery;
}

export function buildPlatform(deps: AppDeps, logger: FastifyBaseLogger, options: PlatformOptions = {}): Platform {
  const transactions = new Transactions(
    deps.database.db,
    (error) => logger.error({ event: 'transaction.afterCommitFailed', err: error }, 'after-commit work failed'),
    // Tests and development fail on a lock out of order; production logs it and goes on.
    deps.config.appEnv === 'production'
      ? (violation) => logger.error({ event: 'transaction.lockOrderViolation', err: violation }, violation.message)
      : undefined,
    isPostgres(deps.database) ? deps.database.replica : null,
  );
  const retries = new AfterCommitRetries(new AfterCommitRetriesRepository(transactions), deps.clock, logger);
  const events = new EventBus(
    transactions,
    (error, event, subscriber) =>
      logger.error(
        { event: 'events.subscriberFailed', domainEvent: event, subscriber, err: error },
        'subscriber failed',
      ),
    retries,
  );
  const metrics = new Metrics({ recording: deps.config.metrics !== null });
  const jobs = new JobRunner(deps.database, logger, (job, outcome, seconds) =>
    metrics.jobRuns.observe({ job, outcome }, seconds),
  );
  jobs.register('after-commit-retries', { schedule: everyMinutes(1), run: () => retries.runDue() });
  const audit = new AuditLog(transactions, deps.clock);
  const caches = new CacheRegistry(deps.broadcast, logger);
  const stats = new Stats(deps.clock, () => jobs.depths());
  caches.register('stats', stats.cache);
  const outboxRows = new MailOutboxRepository(transactions);
  const sender = new OutboxSender(
    outboxRows,
    deps.mailer,
    deps.clock,
    logger,
    messageIdDomain(deps.config.mailFrom, deps.config.publicUrl),
    (kind, result) => metrics.mails.inc({ kind, result }),
  );
  jobs.register('mail-outbox', { schedule: everyMinutes(1), run: () => sender.run(), stop: () => sender.stop() });
  const mail = new MailOutbox(transactions, outboxRows, deps.clock, (id) =>
    options.mailDelivery === 'atCommit' ? sender.sendFiled(id) : jobs.enqueue('mail-outbox'),
  );
  stats.register('mail', (since) => mail.stats(since));
  stats.registerBacklog('events.retriesWaiting', () => retries.waiting());
  registerPlatformMetrics(metrics, { database: deps.database, jobs, caches, stats, logger });
  const { database, ...outside } = deps;
  return {
    ...outside,
    databaseHealth: databaseHealth(database),
    push: countedPushes(deps.push, metrics),
    logger,
    transactions,
    events,
    jobs,
    audit,
    caches,
    stats,
    exports: new ExportRegistry(),
    maintenance: new MaintenanceMode(transactions, audit, deps.clock, logger),
    mail,
    metrics,
    readiness: new Readiness(database, jobs),
  };
}

/** Every area's services; an area whose needs are not built before it stops the build. */
export function buildAreas(modules: readonly AnyAreaModule[], platform: Platform): AreaServices {
  const built: Record<string, unknown> = {};
  for (const module of modules) {
    if (module.name in built) throw new Error(`area ${module.name} is listed twice`);
    for (const need of module.needs) {
      if (!(need in built)) throw new Error(`area ${module.name} needs ${need}, which must be listed before it`);
    }
    built[module.name] = module.create(platform, built as unknown as AreaServices);
  }
  return built as unknown as AreaServices;
}
