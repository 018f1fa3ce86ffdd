/**
 * The e-mail that confirms an account deletion (DELETE /api/users/me): a single-use link valid 24
 * hours, and what confirming does (the account is disabled at once, erased after the grace period,
 * and signing in meanwhile cancels). Texts are the `mail.deleteAccount.*` messages.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { renderMail } from './layout.ts';

export function deletionMail(input: {
  locale: Locale;
  to: string;
  name: string | null;
  token: string;
  publicUrl: string;
  graceDays: number;
}): MailMessage {
  const t = (key: string) => translate(input.locale, `mail.deleteAccount.${key}`, { days: input.graceDays });
  return renderMail(input.locale, input.to, {
    subject: t('subject'),
    name: input.name,
    paragraphs: [t('intro'), t('grace')],
    action: { label: t('action'), url: `${input.publicUrl}/login?delete=${encodeURIComponent(input.token)}` },
    code: input.token,
    footnotes: [t('expiry'), t('notYou')],
  });
}
