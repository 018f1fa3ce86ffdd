/** What the app needs from the outside world; createDeps builds the real ones (server, CLI), tests their own. */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type Broadcast, createBroadcast } from './adapters/broadcast/index.ts';
import { createMailer, type Mailer } from './adapters/mail/index.ts';
import { createPushProvider, type PushProvider, WebPushSender } from './adapters/push/index.ts';
import { createMediaStorage, type MediaStorage } from './adapters/storage/index.ts';
import type { Config } from './config.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import type { Database } from './platform/db/database.ts';
import type { RateLimitStore } from './platform/http/rate-limit.ts';
import type { AddressLookup } from './platform/net/public-address.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  mailer: Mailer;
  rateLimitStore: RateLimitStore;
  /** Media originals and their variants: S3 when configured, else DATA_DIR/media. */
  storage: MediaStorage;
  /** Push notifications: the log provider by default, OneSignal when PUSH_PROVIDER=onesignal. */
  push: PushProvider;
  /** Web Push to browsers' push services (VAPID) when PUSH_PROVIDER names webpush, else null. */
  webPush: WebPushSender | null;
  /** Messages to every instance (cache revocations): Redis, else PostgreSQL NOTIFY, else in-process. */
  broadcast: Broadcast;
  /** DNS for connections that must reach public addresses only (federation's): the system's when absent. */
  addressLookup?: AddressLookup;
}

/**
 * The real outside world from the configuration: mail, media storage, push, broadcast, on the system
 * clock. Clients of services that are not configured (S3, Redis) are not even loaded.
 */
export async function createDeps(
  config: Config,
  database: Database,
  rateLimitStore: RateLimitStore,
  logger: Logger,
): Promise<AppDeps> {
  return {
    config,
    database,
    clock: systemClock,
    mailer: createMailer(
      { smtpUrl: config.smtpUrl, mailDir: join(config.dataDir, 'mail'), from: config.mailFrom },
      logger,
    ),
    rateLimitStore,
    storage: await createMediaStorage({ localRoot: join(config.dataDir, 'media'), s3: config.s3 }),
    push: createPushProvider(config.push, logger),
    webPush: webPushSenderOf(config, logger),
    broadcast: await createBroadcast(config, database, logger),
  };
}

export function webPushSenderOf(config: Config, logger?: Logger): WebPushSender | null {
  const settings = config.push.webPush;
  return settings === null ? null : new WebPushSender({ ...settings, ...(logger ? { logger } : {}) });
}
