/** The CLI's view of the service: the same services as the server, built on the CLI's connection. */
import { join } from 'node:path';
import pino from 'pino';
import { createMailer } from '../adapters/mail/index.ts';
import { createPushProvider } from '../adapters/push/index.ts';
import { createMediaStorage } from '../adapters/storage/index.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { systemClock } from '../platform/clock.ts';
import type { Database } from '../platform/db/database.ts';
import { MemoryRateLimitStore } from '../platform/http/rate-limit.ts';
import { createServices } from '../services.ts';

export function cliServices(config: Config, database: Database) {
  // Logs go to stderr so stdout carries only the command's result.
  const logger = pino({ level: process.env.LOG_LEVEL ? config.logLevel : 'warn' }, pino.destination(2));
  const deps: AppDeps = {
    config,
    database,
    clock: systemClock,
    mailer: createMailer(
      { smtpUrl: config.smtpUrl, mailDir: join(config.dataDir, 'mail'), from: config.mailFrom },
      logger,
    ),
    rateLimitStore: new MemoryRateLimitStore(systemClock),
    storage: createMediaStorage({ localRoot: join(config.dataDir, 'media'), s3: config.s3 }),
    push: createPushProvider(config.push, logger),
  };
  return createServices(deps, logger);
}
