/**
 * Files the outcome mails of resolved reports in the resolution's transaction (the outbox sends them
 * once it commits; a refused or failing resolution mails nobody). A reporter whose account is banned
 * or erased gets none, nor does a remote one (a report that came from another server).
 */
import { defaultLocale, type Locale, supportedLocales } from '../../platform/i18n/i18n.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import type { UsersService } from '../accounts/public.ts';
import { outcomeMail } from './mails/outcome-mail.ts';
import type { ReportRow } from './tables.ts';

const localeOf = (value: string): Locale =>
  (supportedLocales as readonly string[]).includes(value) ? (value as Locale) : defaultLocale;

export class OutcomeMails {
  private readonly users: UsersService;
  private readonly mail: MailOutbox;

  constructor(users: UsersService, mail: MailOutbox) {
    this.users = users;
    this.mail = mail;
  }

  /** One mail per resolved report, to its reporter. */
  async file(resolved: ReportRow[]): Promise<void> {
    for (const report of resolved) await this.#fileOne(report);
  }

  async #fileOne(report: ReportRow): Promise<void> {
    if (report.resolution === null) return;
    const reporter = await this.users.find(report.reporterId);
    if (reporter === null || reporter.bannedAt !== null || reporter.anonymizedAt !== null) return;
    // A report from another server (federation's Flag) has no one to mail: its reporter is a remote actor.
    if (reporter.remoteHandle !== null) return;
    const mail = outcomeMail({
      locale: localeOf(report.locale),
      to: reporter.email,
      name: reporter.nickname ?? reporter.username ?? null,
      reportId: report.id,
      kind: report.targetKind,
      reason: report.reason,
      resolution: report.resolution,
    });
    await this.mail.file(mail, 'report-outcome');
  }
}
