export { createMailer, type MailConfig } from './create-mailer.ts';
export { FileMailer } from './file-mailer.ts';
export type { Mailer, MailMessage } from './mailer.ts';
export { SmtpMailer } from './smtp-mailer.ts';
export { isLoopbackHost, smtpTransportOptions } from './smtp-transport-options.ts';
