/**
 * The mail that tells a reporter how their report ended: reviewed, and action taken or not. It names
 * the kind of content and the reason they gave, never the other party nor what exactly was done.
 * Texts are the `reports.mail.*` messages, in the locale stored with the report.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { escapeHtml as e } from '../../../platform/text/escape-html.ts';
import type { ReportKind, ReportReason, ReportResolution } from '../tables.ts';

export interface OutcomeMailInput {
  locale: Locale;
  to: string;
  /** The reporter's display name, if any. */
  name: string | null;
  reportId: string;
  kind: ReportKind;
  reason: ReportReason;
  resolution: ReportResolution;
}

export function outcomeMail(input: OutcomeMailInput): MailMessage {
  const t = (key: string, values?: Record<string, string>) => translate(input.locale, `reports.mail.${key}`, values);
  const subject = t('subject');
  const greeting = input.name ? t('greeting', { name: input.name }) : t('greetingAnonymous');
  const paragraphs = [
    t('intro', { kind: input.kind, reason: input.reason }),
    t(input.resolution),
    t('privacy'),
    t('reference', { id: input.reportId }),
  ];
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
