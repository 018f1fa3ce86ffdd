/** The appeals area's mails: platform's notice layout with the area's greeting and signature. */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { renderNoticeMail } from '../../../platform/mail-outbox/mail-layout.ts';

export interface AppealsMailContent {
  locale: Locale;
  to: string;
  /** The recipient's display name, if any. */
  name: string | null;
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}

export { mailTime } from '../../../platform/mail-outbox/mail-layout.ts';

export function renderAppealsMail(content: AppealsMailContent): MailMessage {
  const t = (key: string, values?: Record<string, string>) => translate(content.locale, `appeals.mail.${key}`, values);
  return renderNoticeMail({
    ...content,
    greeting: content.name ? t('greeting', { name: content.name }) : t('greetingAnonymous'),
    signature: t('signature'),
  });
}
