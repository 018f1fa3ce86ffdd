import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../platform/clock.ts';
import type { Mailer, MailMessage } from './mailer.ts';
import { smtpTransportOptions } from './smtp-transport-options.ts';

/** Hands each message to an SMTP server (`SMTP_URL`), one connection per message. */
export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(options: { smtpUrl: string; from: string; clock?: Clock }, logger: Logger) {
    this.#transport = nodemailer.createTransport(smtpTransportOptions(options.smtpUrl));
    this.#from = options.from;
    this.#clock = options.clock ?? systemClock;
    this.#logger = logger;
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.#transport.sendMail({ from: this.#from, date: this.#clock.now(), ...message });
    this.#logger.info(
      { event: 'mail.sent', to: message.to, subject: message.subject, messageId: info.messageId },
      'mail sent over SMTP',
    );
  }
}
