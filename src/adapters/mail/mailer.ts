export interface MailMessage {
  to: string;
  subject: string;
  /** Plain-text alternative. */
  text: string;
  html: string;
  /** Extra headers (e.g. List-Unsubscribe); nodemailer writes them as given. */
  headers?: Record<string, string>;
  /** The Message-ID header, `<unique@domain>` (the outbox makes it from the mail's row id); nodemailer makes one otherwise. */
  messageId?: string;
}

/** Sends one rendered e-mail. Rejects when the message could not be handed over. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
