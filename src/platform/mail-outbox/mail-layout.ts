/**
 * The layout of a plain notice mail: a greeting, paragraphs, an optional action link, a signature,
 * as text and as HTML (every text HTML-escaped). The caller translates its own strings (each area's
 * catalog has its greeting and signature). Accounts' token mails, with their code and footnotes, have
 * a layout of their own (accounts/mails/layout.ts).
 */
import type { MailMessage } from '../../adapters/mail/index.ts';
import { type Locale, languageOf } from '../i18n/i18n.ts';
import { escapeHtml as e } from '../text/escape-html.ts';

export interface NoticeMail {
  locale: Locale;
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  signature: string;
}

/** A time the same in every locale and mail client: `2026-11-28 10:40 UTC`. */
export const mailTime = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function renderNoticeMail(mail: NoticeMail): MailMessage {
  const { action, greeting, signature, subject } = mail;
  const text = [
    greeting,
    '',
    ...mail.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '-- ',
    signature,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="${e(languageOf(mail.locale))}">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #222; max-width: 560px; margin: 0 auto; padding: 24px;">
<p>${e(greeting)}</p>
${mail.paragraphs.map((paragraph) => `<p>${e(paragraph)}</p>`).join('\n')}
${action ? `<p><a href="${e(action.url)}">${e(action.label)}</a></p>` : ''}
<p style="font-size: 13px; color: #888;">${e(signature)}</p>
</body>
</html>
`;
  return { to: mail.to, subject, text, html };
}
