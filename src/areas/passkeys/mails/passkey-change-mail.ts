/**
 * The mail that tells the owner a passkey was added to or removed from their account, in the locale
 * of the request that made the change (`passkeys.mail.*` messages). It names the passkey and when,
 * never its keys.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { escapeHtml as e } from '../../../platform/text/escape-html.ts';

export interface PasskeyChangeMailInput {
  change: 'added' | 'removed';
  locale: Locale;
  to: string;
  /** The owner's display name, if any. */
  name: string | null;
  passkeyName: string;
  at: Date;
}

/** A time every reader reads alike: `2026-11-28 10:40 UTC`. */
const utcMinute = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function passkeyChangeMail(input: PasskeyChangeMailInput): MailMessage {
  const t = (key: string, values?: Record<string, string>) => translate(input.locale, `passkeys.mail.${key}`, values);
  const subject = t(input.change === 'added' ? 'addedSubject' : 'removedSubject');
  const greeting = input.name ? t('greeting', { name: input.name }) : t('greetingAnonymous');
  const paragraphs = [t(input.change, { passkey: input.passkeyName, at: utcMinute(input.at) }), t('notYou')];
  const signature = t('signature');
  const text = [greeting, '', ...paragraphs.flatMap((paragraph) => [paragraph, '']), '-- ', signature, ''].join('\n');
  const lang = input.locale.split('-')[0] ?? 'en';
  const html = `<!doctype html>
<html lang="${e(lang)}">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #222; max-width: 560px; margin: 0 auto; padding: 24px;">
<p>${e(greeting)}</p>
${paragraphs.map((paragraph) => `<p>${e(paragraph)}</p>`).join('\n')}
<p style="font-size: 13px; color: #888;">${e(signature)}</p>
</body>
</html>
`;
  return { to: input.to, subject, text, html };
}
