/**
 * The mail that tells the owner a passkey was added to or removed from their account, in the locale
 * of the request that made the change (`passkeys.mail.*` messages). It names the passkey and when,
 * never its keys.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { mailTime, renderNoticeMail } from '../../../platform/mail-outbox/mail-layout.ts';

export interface PasskeyChangeMailInput {
  change: 'added' | 'removed';
  locale: Locale;
  to: string;
  /** The owner's display name, if any. */
  name: string | null;
  passkeyName: string;
  at: Date;
}

export function passkeyChangeMail(input: PasskeyChangeMailInput): MailMessage {
  const t = (key: string, values?: Record<string, string>) => translate(input.locale, `passkeys.mail.${key}`, values);
  return renderNoticeMail({
    locale: input.locale,
    to: input.to,
    subject: t(input.change === 'added' ? 'addedSubject' : 'removedSubject'),
    greeting: input.name ? t('greeting', { name: input.name }) : t('greetingAnonymous'),
    paragraphs: [t(input.change, { passkey: input.passkeyName, at: mailTime(input.at) }), t('notYou')],
    signature: t('signature'),
  });
}
