/** The e-mail that confirms an address: sent at registration and on resend-confirmation. */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { renderMail } from './layout.ts';

export function confirmEmailMail(input: {
  locale: Locale;
  to: string;
  name: string | null;
  token: string;
  publicUrl: string;
}): MailMessage {
  const t = (key: string) => translate(input.locale, key);
  return renderMail(input.locale, input.to, {
    subject: t('mail.confirmEmail.subject'),
    name: input.name,
    paragraphs: [t('mail.confirmEmail.intro')],
    action: {
      label: t('mail.confirmEmail.action'),
      url: `${input.publicUrl}/login?confirm=${encodeURIComponent(input.token)}`,
    },
    code: input.token,
    footnotes: [t('mail.confirmEmail.expiry'), t('mail.confirmEmail.notYou')],
  });
}
