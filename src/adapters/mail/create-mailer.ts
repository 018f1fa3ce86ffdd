import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.ts';
import { FileMailer } from './file-mailer.ts';
import type { Mailer } from './mailer.ts';
import { SmtpMailer } from './smtp-mailer.ts';

export interface MailConfig {
  /** When set, mail goes over SMTP; otherwise it is written as .eml files into `mailDir`. */
  smtpUrl?: string | null;
  mailDir: string;
  /** The From header, e.g. `Travel <no-reply@example.com>`. */
  from: string;
  clock?: Clock;
}

export function createMailer(config: MailConfig, logger: Logger): Mailer {
  if (config.smtpUrl)
    return new SmtpMailer({ smtpUrl: config.smtpUrl, from: config.from, clock: config.clock }, logger);
  return new FileMailer({ mailDir: config.mailDir, from: config.from, clock: config.clock }, logger);
}
