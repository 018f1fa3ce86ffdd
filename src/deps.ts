/** What the app needs from the outside world; main.ts builds the real ones, tests their own. */
import type { Config } from './config.ts';
import type { Clock } from './platform/clock.ts';
import type { Database } from './platform/db/database.ts';
import type { RateLimitStore } from './platform/http/rate-limit.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailSender {
  send(message: OutgoingMail): Promise<void>;
}

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  mailer: MailSender;
  rateLimitStore: RateLimitStore;
}
