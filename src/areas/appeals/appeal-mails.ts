/**
 * Files the appeals area's mails in the transaction of their cause (the outbox sends them once it
 * commits), in the user's locale: a decision's in the one they registered in (moderation_locales;
 * en-US when none is known: accounts made before appeals, or by an operator), an appeal's outcome in
 * the one negotiated for the appeal's request. An erased account gets none.
 */
import type { Clock } from '../../platform/clock.ts';
import { defaultLocale, type Locale, supportedLocales } from '../../platform/i18n/i18n.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import type { UsersService } from '../accounts/public.ts';
import type { AppealsRepository } from './appeals.repository.ts';
import { decisionMail } from './mails/decision-mail.ts';
import { appealOutcomeMail } from './mails/outcome-mail.ts';
import type { AppealRow, DecisionRow } from './tables.ts';

const isLocale = (value: string | null): value is Locale =>
  value !== null && (supportedLocales as readonly string[]).includes(value);

export interface AppealMailsDeps {
  repository: AppealsRepository;
  users: UsersService;
  mail: MailOutbox;
  clock: Clock;
  publicUrl: string;
}

export class AppealMails {
  readonly #deps: AppealMailsDeps;

  constructor(deps: AppealMailsDeps) {
    this.#deps = deps;
  }

  /** Remembers the locale the user's decision mails are written in (their registration's). */
  rememberLocale(userId: string, locale: Locale): Promise<void> {
    return this.#deps.repository.setLocale(userId, locale, this.#deps.clock.now());
  }

  async fileDecision(decision: DecisionRow, token: string | null): Promise<void> {
    const recipient = await this.#recipient(decision.userId, await this.#deps.repository.localeOf(decision.userId));
    if (recipient === null) return;
    await this.#deps.mail.file(
      decisionMail({ ...recipient, decision, token, publicUrl: this.#deps.publicUrl }),
      'moderation-decision',
    );
  }

  async fileOutcome(appeal: AppealRow, decision: DecisionRow): Promise<void> {
    const recipient = await this.#recipient(decision.userId, appeal.locale);
    if (recipient === null) return;
    await this.#deps.mail.file(appealOutcomeMail({ ...recipient, appeal, decision }), 'appeal-outcome');
  }

  async #recipient(
    userId: string,
    stored: string | null,
  ): Promise<{ to: string; name: string | null; locale: Locale } | null> {
    const user = await this.#deps.users.find(userId);
    // A remote actor's shadow (federation) has no address: its server is not told by mail.
    if (user === null || user.anonymizedAt !== null || user.remoteHandle !== null) return null;
    return {
      to: user.email,
      name: user.nickname ?? user.username ?? null,
      locale: isLocale(stored) ? stored : defaultLocale,
    };
  }
}
