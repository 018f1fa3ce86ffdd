/**
 * The notices of a change to how an account signs in (docs/api.md, Two-factor authentication):
 * two-factor turned on, turned off (by the owner or reset by an operator), a recovery code used,
 * and a sign-in from a new device. No link: a notice asks nothing, it tells the owner what happened
 * and what to do if it was not them. Texts are the `mail.signInNotice.<kind>.*` messages.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { renderMail } from './layout.ts';

export type SignInNoticeKind =
  | 'twoFactorEnabled'
  | 'twoFactorDisabled'
  | 'twoFactorReset'
  | 'recoveryCodeUsed'
  | 'newDevice';

export function signInNoticeMail(input: {
  kind: SignInNoticeKind;
  locale: Locale;
  to: string;
  name: string | null;
  /** What the texts name: the time, the device's user agent and address, recovery codes left. */
  values: Record<string, string | number>;
}): MailMessage {
  const t = (key: string) => translate(input.locale, `mail.signInNotice.${input.kind}.${key}`, input.values);
  return renderMail(input.locale, input.to, {
    subject: t('subject'),
    name: input.name,
    paragraphs: [t('intro')],
    action: null,
    code: null,
    footnotes: [translate(input.locale, 'mail.signInNotice.notYou')],
  });
}
