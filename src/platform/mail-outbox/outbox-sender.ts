/**
 * The job mail-outbox: sends the filed mails, one row at a time, idempotent in the database as the
 * push flush is: a row is claimed by a conditional update (a lease of `mailClaimLeaseMs`, an attempt
 * counted), then handed to the mailer, then marked sent; no transaction stays open across SMTP. Two
 * instances, or a run the queue delivers twice, never send a row twice; a run that dies after its
 * claim leaves the row to the first run after the lease. Each mail's Message-ID is made of its row
 * id, so in that rare case (sent, then the process died before marking it) a receiving server can
 * drop the second copy. A failed send waits `retryDelayMs` and is tried again, up to `mailRetry.attempts`,
 * then the row is `failed`. A graceful stop ends the run after the mail in hand: the rest stays filed.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../adapters/mail/index.ts';
import type { Clock } from '../clock.ts';
import { doublingDelayMs } from '../concurrency/backoff.ts';
import type { MailAttemptResult } from '../metrics/metrics.ts';
import type { MailOutboxRepository } from './mail-outbox.repository.ts';
import type { OutboxRow } from './tables.ts';

/** Attempts per mail, and the wait after each failed one: 1 minute, doubling, at most 6 hours (about 20 hours in all). */
export const mailRetry = { attempts: 12, firstDelayMs: 60_000, maxDelayMs: 6 * 3_600_000 } as const;
/** How long a sender holds the row it claimed: longer than an SMTP hand-over with its timeouts can take. */
export const mailClaimLeaseMs = 5 * 60_000;
/** Finished rows are kept this long (days), then deleted by the job. */
export const mailRetentionDays = { sent: 7, failed: 30 } as const;

const dayMs = 86_400_000;

/** The wait after the `attempts`-th failed attempt. */
export const retryDelayMs = (attempts: number): number =>
  doublingDelayMs(attempts, mailRetry.firstDelayMs, mailRetry.maxDelayMs);

/** The domain of Message-IDs: the From address's, else the public URL's host. */
export function messageIdDomain(mailFrom: string, publicUrl: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  const domain = address.includes('@') ? address.slice(address.lastIndexOf('@') + 1).trim() : '';
  return domain === '' ? new URL(publicUrl).hostname : domain;
}

export interface OutboxReport {
  [field: string]: number;
  sent: number;
  /** Sends that failed and wait for a later attempt. */
  retryLater: number;
  /** Mails given up in this run (their last attempt failed). */
  failed: number;
  /** Finished rows past their retention, deleted. */
  deleted: number;
}

export class OutboxSender {
  #stopping = false;
  private readonly repository: MailOutboxRepository;
  private readonly mailer: Mailer;
  private readonly clock: Clock;
  private readonly logger: FastifyBaseLogger;
  private readonly domain: string;
  private readonly counted: (kind: string, result: MailAttemptResult) => void;

  constructor(
    repository: MailOutboxRepository,
    mailer: Mailer,
    clock: Clock,
    logger: FastifyBaseLogger,
    domain: string,
    /** Told of every attempt's result (the metrics' tms_mail_attempts_total). */
    counted: (kind: string, result: MailAttemptResult) => void = () => {},
  ) {
    this.repository = repository;
    this.mailer = mailer;
    this.clock = clock;
    this.logger = logger;
    this.domain = domain;
    this.counted = counted;
  }

  /** Sends every due mail, then deletes finished rows past their retention. */
  async run(): Promise<OutboxReport> {
    const report: OutboxReport = { sent: 0, retryLater: 0, failed: 0, deleted: 0 };
    while (!this.#stopping) {
      const row = await this.#claim();
      if (row === null) break;
      await this.#attempt(row, report);
    }
    const now = this.clock.now().getTime();
    report.deleted = await this.repository.deleteFinished(
      new Date(now - mailRetentionDays.sent * dayMs),
      new Date(now - mailRetentionDays.failed * dayMs),
    );
    return report;
  }

  /** Sends one filed mail now, if it is still due and unclaimed (`atCommit` delivery). */
  async sendFiled(id: string): Promise<void> {
    const row = await this.#claim(id);
    if (row !== null) await this.#attempt(row, { sent: 0, retryLater: 0, failed: 0, deleted: 0 });
  }

  /** A graceful stop: no new row is claimed; the mail being handed over finishes. */
  stop(): void {
    this.#stopping = true;
  }

  #claim(only?: string): Promise<OutboxRow | null> {
    const now = this.clock.now();
    return this.repository.claimDue(now, new Date(now.getTime() + mailClaimLeaseMs), only);
  }

  async #attempt(row: OutboxRow, report: OutboxReport): Promise<void> {
    try {
      await this.mailer.send({
        to: row.recipient,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        ...(row.headers === null ? {} : { headers: row.headers }),
        messageId: `<${row.id}@${this.domain}>`,
      });
    } catch (error) {
      const now = this.clock.now();
      const retryAt = row.attempts >= mailRetry.attempts ? null : new Date(now.getTime() + retryDelayMs(row.attempts));
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (!(await this.repository.attemptFailed(row.id, reason, now, retryAt))) {
        this.logger.info(
          { event: 'mail.finishedElsewhere', kind: row.kind, mailId: row.id, err: error },
          'mail not sent by this instance: another one took it after this one’s lease and finished it',
        );
        return;
      }
      const logged = { kind: row.kind, mailId: row.id, attempts: row.attempts, err: error };
      this.counted(row.kind, retryAt === null ? 'givenUp' : 'retryLater');
      if (retryAt === null) {
        report.failed++;
        this.logger.error({ event: 'mail.failed', ...logged }, 'mail given up after its last attempt');
      } else {
        report.retryLater++;
        this.logger.warn({ event: 'mail.sendFailed', ...logged, retryAt }, 'mail not sent; it will be tried again');
      }
      return;
    }
    await this.repository.markSent(row.id, this.clock.now());
    this.counted(row.kind, 'sent');
    report.sent++;
  }
}
