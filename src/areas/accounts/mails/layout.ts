/**
 * The one layout every account e-mail shares: a greeting, paragraphs, one action link, the raw code
 * for apps, footnotes. Texts come from the message catalogs in the caller's locale; every rendered
 * string is HTML-escaped before it enters the HTML part.
 */

import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { escapeHtml } from '../../../platform/text/escape-html.ts';

export interface MailContent {
  subject: string;
  /** The recipient's display name, if any. */
  name: string | null;
  paragraphs: string[];
  /** The one link of the mail; a notice (sign-in security mails) has none. */
  action: { label: string; url: string } | null;
  /** The token itself, for apps that ask for it instead of following the link. */
  code: string | null;
  footnotes: string[];
}

export function renderMail(locale: Locale, to: string, content: MailContent): MailMessage {
  const t = (key: string, values?: Record<string, unknown>) => translate(locale, key, values);
  const greeting = content.name ? t('mail.greeting', { name: content.name }) : t('mail.greetingAnonymous');
  const codeLine = content.code === null ? null : t('mail.codeLine', { code: content.code });
  const action = content.action;
  const signature = t('mail.signature');

  const text = [
    greeting,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(action === null ? [] : [action.url, '']),
    ...(codeLine === null ? [] : [codeLine, '']),
    ...content.footnotes.flatMap((footnote) => [footnote, '']),
    '-- ',
    signature,
    '',
  ].join('\n');

  const e = escapeHtml;
  const lang = locale.split('-')[0] ?? 'en';
  const html = `<!doctype html>
<html lang="${e(lang)}">
<head><meta charset="utf-8"><title>${e(content.subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #222; max-width: 560px; margin: 0 auto; padding: 24px;">
<p>${e(greeting)}</p>
${content.paragraphs.map((paragraph) => `<p>${e(paragraph)}</p>`).join('\n')}
${
  action === null
    ? ''
    : `<p><a href="${e(action.url)}" style="display: inline-block; padding: 10px 18px; background: #1d6f5f; color: #fff; text-decoration: none; border-radius: 4px;">${e(action.label)}</a></p>
<p style="font-size: 13px; color: #555;">${e(t('mail.linkFallback'))}<br><a href="${e(action.url)}">${e(action.url)}</a></p>
`
}${codeLine === null ? '' : `<p style="font-size: 13px; color: #555;">${e(codeLine)}</p>\n`}${content.footnotes.map((footnote) => `<p style="font-size: 13px; color: #555;">${e(footnote)}</p>`).join('\n')}
<p style="font-size: 13px; color: #888;">${e(signature)}</p>
</body>
</html>
`;
  return { to, subject: content.subject, text, html };
}
