/** What the app needs from the outside world; main.ts builds the real ones, tests their own. */
import type { Mailer } from './adapters/mail/index.ts';
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
}
