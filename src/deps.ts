/** What the app needs from the outside world; main.ts builds the real ones, tests their own. */
import type { Mailer } from './adapters/mail/index.ts';
import type { PushProvider } from './adapters/push/index.ts';
import type { MediaStorage } from './adapters/storage/index.ts';
import type { Config } from './config.ts';
import type { Clock } from './platform/clock.ts';
import type { Database } from './platform/db/database.ts';
import type { RateLimitStore } from './platform/http/rate-limit.ts';

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
}
