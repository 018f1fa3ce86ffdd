import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../platform/clock.ts';
import { loadNodemailer } from './load-nodemailer.ts';
import type { Mailer, MailMessage } from './mailer.ts';

/**
 * Development mailer: each message becomes a complete RFC 822 `.eml` file that any mail client opens.
 * Mails carry sign-in tokens, so the files are 0600 in a 0700 folder: readable by the service's user only.
 */
export class FileMailer implements Mailer {
  #transport: Promise<Transporter> | null = null;
  readonly #mailDir: string;
  readonly #from: string;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(options: { mailDir: string; from: string; clock?: Clock }, logger: Logger) {
    this.#mailDir = options.mailDir;
    this.#from = options.from;
    this.#clock = options.clock ?? systemClock;
    this.#logger = logger;
  }

  async send(message: MailMessage): Promise<void> {
    const now = this.#clock.now();
    this.#transport ??= loadNodemailer().then(({ default: nodemailer }) =>
      nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
    );
    const info = await (await this.#transport).sendMail({ from: this.#from, date: now, ...message });
    const name = `${now.toISOString()}-${randomBytes(4).toString('hex')}.eml`;
    const file = join(this.#mailDir, name);
    const temporary = join(this.#mailDir, `.${name}.tmp`);
    // A folder made before (by an older version, or by hand) is narrowed too.
    await mkdir(this.#mailDir, { recursive: true, mode: 0o700 });
    await chmod(this.#mailDir, 0o700);
    // Whoever watches the directory never sees a half-written .eml.
    await writeFile(temporary, info.message as Buffer, { flag: 'wx', mode: 0o600 });
    await rename(temporary, file);
    this.#logger.info(
      { event: 'mail.written', to: message.to, subject: message.subject, file },
      'mail written to file',
    );
  }
}
