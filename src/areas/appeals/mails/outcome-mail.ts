/** The mail that tells a user how their appeal ended: upheld or reversed, with the moderator's answer. */
import type { MailMessage } from '../../../adapters/mail/index.ts';
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import type { AppealRow, DecisionRow } from '../tables.ts';
import { renderAppealsMail } from './mail-layout.ts';

export interface AppealOutcomeMailInput {
  locale: Locale;
  to: string;
  name: string | null;
  appeal: AppealRow;
  decision: DecisionRow;
}

export function appealOutcomeMail(input: AppealOutcomeMailInput): MailMessage {
  const { appeal, decision } = input;
  const t = (key: string, values: Record<string, string> = {}) =>
    translate(input.locale, `appeals.mail.${key}`, { kind: decision.kind, outcome: appeal.status, ...values });
  return renderAppealsMail({
    locale: input.locale,
    to: input.to,
    name: input.name,
    subject: t('outcome.subject'),
    paragraphs: [
      t('outcome.intro'),
      t(appeal.status === 'reversed' ? 'outcome.reversed' : 'outcome.upheld'),
      ...(appeal.response ? [t('outcome.response', { response: appeal.response })] : []),
      t('reference', { id: decision.id }),
    ],
  });
}
