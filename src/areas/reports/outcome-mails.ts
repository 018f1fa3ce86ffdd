/**
 * Sends the outcome mails of resolved reports once the resolution has committed, in the background
 * (the admin's answer does not wait for SMTP). A reporter whose account is banned or erased gets none.
 * A mail that cannot be handed over is logged (`mail.sendFailed`); a graceful stop waits for the rest.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../adapters/mail/index.ts';
import { defaultLocale, type Locale, supportedLocales } from '../../platform/i18n/i18n.ts';
import type { UsersService } from '../accounts/users.service.ts';
import { outcomeMail } from './mails/outcome-mail.ts';
import type { ReportRow } from './tables.ts';

const localeOf = (value: string): Locale =>
  (supportedLocales as readonly string[]).includes(value) ? (value as Locale) : defaultLocale;

export class OutcomeMails {
  readonly #inFlight = new Set<Promise<void>>();

  private readonly users: UsersService;
  private readonly mailer: Mailer;
  private readonly logger: FastifyBaseLogger;

  constructor(users: UsersService, mailer: Mailer, logger: FastifyBaseLogger) {
    this.users = users;
    this.mailer = mailer;
    this.logger = logger;
  }

  /** One mail per resolved report, to its reporter: addressed now, handed over in the background. */
  async send(resolved: ReportRow[]): Promise<void> {
    for (const report of resolved) await this.#sendOne(report);
  }

  async #sendOne(report: ReportRow): Promise<void> {
    if (report.resolution === null) return;
    const reporter = await this.users.find(report.reporterId);
    if (reporter === null || reporter.bannedAt !== null || reporter.anonymizedAt !== null) return;
    this.#track(
      this.mailer.send(
        outcomeMail({
          locale: localeOf(report.locale),
          to: reporter.email,
          name: reporter.nickname ?? reporter.username ?? null,
          reportId: report.id,
          kind: report.targetKind,
          reason: report.reason,
          resolution: report.resolution,
        }),
      ),
    );
  }

  #track(sending: Promise<void>): void {
    const tracked = sending
      .catch((error: unknown) => {
        this.logger.error(
          { event: 'mail.sendFailed', kind: 'report-outcome', err: error },
          'could not send a report outcome e-mail',
        );
      })
      .finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  /** Waits for the mails still being handed over. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }
}
