/**
 * The layout of the appeals area's mails: a greeting, paragraphs, an optional action link, a signature.
 * Every text is HTML-escaped before it enters the HTML part.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, languageOf, translate } from '../../../platform/i18n/i18n.ts';
import { escapeHtml as e } from '../../../platform/text/escape-html.ts';

export interface AppealsMailContent {
  locale: Locale;
  to: string;
  /** The recipient's display name, if any. */
  name: string | null;
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}

/** An ISO date and time in UTC, the same in every locale (mail clients show no time zone of ours). */
export const mailTime = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function renderAppealsMail(content: AppealsMailContent): MailMessage {
  const t = (key: string, values?: Record<string, string>) => translate(content.locale, `appeals.mail.${key}`, values);
  const greeting = content.name ? t('greeting', { name: content.name }) : t('greetingAnonymous');
  const signature = t('signature');
  const action = content.action;
  const text = [
    greeting,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '-- ',
    signature,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="${e(languageOf(content.locale))}">
<head><meta charset="utf-8"><title>${e(content.subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #222; max-width: 560px; margin: 0 auto; padding: 24px;">
<p>${e(greeting)}</p>
${content.paragraphs.map((paragraph) => `<p>${e(paragraph)}</p>`).join('\n')}
${action ? `<p><a href="${e(action.url)}">${e(action.label)}</a></p>` : ''}
<p style="font-size: 13px; color: #888;">${e(signature)}</p>
</body>
</html>
`;
  return { to: content.to, subject: content.subject, text, html };
}
