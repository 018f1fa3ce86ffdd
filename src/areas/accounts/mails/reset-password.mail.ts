/** The e-mail with a password reset link: sent on forgot-password. */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { renderMail } from './layout.ts';

export function resetPasswordMail(input: {
  locale: Locale;
  to: string;
  name: string | null;
  token: string;
  publicUrl: string;
}): MailMessage {
  const t = (key: string) => translate(input.locale, key);
  return renderMail(input.locale, input.to, {
    subject: t('mail.resetPassword.subject'),
    name: input.name,
    paragraphs: [t('mail.resetPassword.intro')],
    action: {
      label: t('mail.resetPassword.action'),
      url: `${input.publicUrl}/login?reset=${encodeURIComponent(input.token)}`,
    },
    code: input.token,
    footnotes: [t('mail.resetPassword.expiry'), t('mail.resetPassword.notYou')],
  });
}
