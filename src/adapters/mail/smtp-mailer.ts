import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../platform/clock.ts';
import { loadNodemailer } from './load-nodemailer.ts';
import type { Mailer, MailMessage } from './mailer.ts';
import { smtpTransportOptions } from './smtp-transport-options.ts';

/** Hands each message to an SMTP server (`SMTP_URL`), one connection per message. */
export class SmtpMailer implements Mailer {
  #transport: Promise<Transporter> | null = null;
  readonly #transportOptions: ReturnType<typeof smtpTransportOptions>;
  readonly #from: string;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(options: { smtpUrl: string; from: string; clock?: Clock }, logger: Logger) {
    this.#transportOptions = smtpTransportOptions(options.smtpUrl);
    this.#from = options.from;
    this.#clock = options.clock ?? systemClock;
    this.#logger = logger;
  }

  async send(message: MailMessage): Promise<void> {
    this.#transport ??= loadNodemailer().then(({ default: nodemailer }) =>
      nodemailer.createTransport(this.#transportOptions),
    );
    const info = await (await this.#transport).sendMail({ from: this.#from, date: this.#clock.now(), ...message });
    this.#logger.info(
      { event: 'mail.sent', to: message.to, subject: message.subject, messageId: info.messageId },
      'mail sent over SMTP',
    );
  }
}
