/** The CLI's view of the service: the same services as the server, built on the CLI's connection. */
import pino from 'pino';
import type { Config } from '../config.ts';
import { createDeps } from '../deps.ts';
import { systemClock } from '../platform/clock.ts';
import type { Database } from '../platform/db/database.ts';
import { MemoryRateLimitStore } from '../platform/http/memory-rate-limit-store.ts';
import { createServices } from '../services.ts';

export async function cliServices(config: Config, database: Database) {
  // Logs go to stderr so stdout carries only the command's result.
  const logger = pino({ level: process.env.LOG_LEVEL ? config.logLevel : 'warn' }, pino.destination(2));
  return createServices(await createDeps(config, database, new MemoryRateLimitStore(systemClock), logger), logger);
}
