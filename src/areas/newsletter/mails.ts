/**
 * The newsletter's mails. Every one (the confirmation too, and later issues) carries `List-Unsubscribe`
 * with its own unsubscribe link and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), so
 * mail clients offer a one-click unsubscribe. Texts are the `newsletter.mail.*` messages; every string
 * is HTML-escaped before it enters the HTML part.
 */
import type { MailMessage } from '../../adapters/mail/index.ts';
import { type Locale, languageOf, translate } from '../../platform/i18n/i18n.ts';
import { escapeHtml } from '../../platform/text/escape-html.ts';

export const confirmUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`;
export const unsubscribeUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;

/** The RFC 2369 / RFC 8058 headers of every newsletter mail. */
export const listUnsubscribeHeaders = (url: string): Record<string, string> => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

export function confirmationMail(input: {
  locale: Locale;
  to: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(input.locale, `newsletter.mail.${key}`, values);
  const e = escapeHtml;
  const subject = t('confirm.subject');
  const unsubscribeLine = t('unsubscribeLine', { url: input.unsubscribeUrl });
  const text = [
    t('confirm.greeting'),
    '',
    t('confirm.intro'),
    '',
    input.confirmUrl,
    '',
    t('confirm.expiry'),
    '',
    t('confirm.notYou'),
    '',
    '-- ',
    t('signature'),
    unsubscribeLine,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="${e(languageOf(input.locale))}">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #222; max-width: 560px; margin: 0 auto; padding: 24px;">
<p>${e(t('confirm.greeting'))}</p>
<p>${e(t('confirm.intro'))}</p>
<p><a href="${e(input.confirmUrl)}" style="display: inline-block; padding: 10px 18px; background: #1d6f5f; color: #fff; text-decoration: none; border-radius: 4px;">${e(t('confirm.action'))}</a></p>
<p style="font-size: 13px; color: #555;">${e(t('confirm.linkFallback'))}<br><a href="${e(input.confirmUrl)}">${e(input.confirmUrl)}</a></p>
<p style="font-size: 13px; color: #555;">${e(t('confirm.expiry'))}</p>
<p style="font-size: 13px; color: #555;">${e(t('confirm.notYou'))}</p>
<p style="font-size: 13px; color: #888;">${e(t('signature'))}<br><a href="${e(input.unsubscribeUrl)}" style="color: #888;">${e(unsubscribeLine)}</a></p>
</body>
</html>
`;
  return { to: input.to, subject, text, html, headers: listUnsubscribeHeaders(input.unsubscribeUrl) };
}
