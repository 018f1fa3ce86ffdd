/**
 * The mail that tells a reporter how their report ended: reviewed, and action taken or not. It names
 * the kind of content and the reason they gave, never the other party nor what exactly was done.
 * Texts are the `reports.mail.*` messages, in the locale stored with the report.
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { renderNoticeMail } from '../../../platform/mail-outbox/mail-layout.ts';
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
  return renderNoticeMail({
    locale: input.locale,
    to: input.to,
    subject: t('subject'),
    greeting: input.name ? t('greeting', { name: input.name }) : t('greetingAnonymous'),
    paragraphs: [
      t('intro', { kind: input.kind, reason: input.reason }),
      t(input.resolution),
      t('privacy'),
      t('reference', { id: input.reportId }),
    ],
    signature: t('signature'),
  });
}
