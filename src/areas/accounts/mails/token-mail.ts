/**
 * The e-mails that carry a single-use token: address confirmation (sent at registration and on
 * resend-confirmation) and password reset (sent on forgot-password). Their texts are the
 * `mail.<purpose>.*` messages; the link opens the web login page with the token.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { renderMail } from './layout.ts';

const purposes = {
  confirmEmail: { linkParameter: 'confirm' },
  resetPassword: { linkParameter: 'reset' },
} as const;

export type TokenMailPurpose = keyof typeof purposes;

export function tokenMail(
  purpose: TokenMailPurpose,
  input: { locale: Locale; to: string; name: string | null; token: string; publicUrl: string },
): MailMessage {
  const t = (key: string) => translate(input.locale, `mail.${purpose}.${key}`);
  const link = `${input.publicUrl}/login?${purposes[purpose].linkParameter}=${encodeURIComponent(input.token)}`;
  return renderMail(input.locale, input.to, {
    subject: t('subject'),
    name: input.name,
    paragraphs: [t('intro')],
    action: { label: t('action'), url: link },
    code: input.token,
    footnotes: [t('expiry'), t('notYou')],
  });
}
