/**
 * The mail that tells a user of a moderation decision about them: what was done, the report's reason
 * and the moderator's note when there are, a ban's end, and how to appeal until the window closes (a
 * banned user, who cannot sign in, gets a single-use link and its code).
 */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import type { DecisionRow } from '../tables.ts';
import { mailTime, renderAppealsMail } from './mail-layout.ts';

export interface DecisionMailInput {
  locale: Locale;
  to: string;
  name: string | null;
  decision: DecisionRow;
  /** The appeal link's token (banned users only). */
  token: string | null;
  publicUrl: string;
}

export function decisionMail(input: DecisionMailInput): MailMessage {
  const { decision, token } = input;
  const t = (key: string, values: Record<string, string> = {}) =>
    translate(input.locale, `appeals.mail.${key}`, { kind: decision.kind, ...values });
  const until = mailTime(decision.appealUntil);
  const paragraphs = [
    t('decision.intro'),
    ...(decision.removedText ? [t('decision.quote', { text: decision.removedText })] : []),
    ...(decision.reportReason ? [t('decision.reportReason', { reason: decision.reportReason })] : []),
    ...(decision.note ? [t('decision.note', { note: decision.note })] : []),
    ...(decision.kind === 'userBanned'
      ? [decision.banUntil ? t('decision.banUntil', { until: mailTime(decision.banUntil) }) : t('decision.banOpen')]
      : []),
    token === null ? t('decision.appeal', { until }) : t('decision.appealLink', { until }),
    t('reference', { id: decision.id }),
    ...(token === null ? [] : [t('code', { code: token })]),
  ];
  return renderAppealsMail({
    locale: input.locale,
    to: input.to,
    name: input.name,
    subject: t('decision.subject'),
    paragraphs,
    ...(token === null
      ? {}
      : {
          action: { label: t('decision.action'), url: `${input.publicUrl}/appeal?token=${encodeURIComponent(token)}` },
        }),
  });
}
