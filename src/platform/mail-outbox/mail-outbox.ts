/**
 * The mail outbox (platform.mail): an area files a rendered mail in the transaction of the change
 * that causes it, so a mail exists if and only if the change committed; the job mail-outbox sends it
 * (outbox-sender.ts), with retries, whatever the mail server was doing at the time of the change.
 */
import type { MailMessage } from '../../adapters/mail/index.ts';
import type { Clock } from '../clock.ts';
import type { Transactions } from '../db/transactions.ts';
import { newId } from '../ids/ids.ts';
import type { StatsSince } from '../stats/stats.ts';
import type { MailOutboxRepository, OutboxCounts } from './mail-outbox.repository.ts';

/**
 * What happens once a transaction that filed a mail commits: `queue` files a run of the job (the
 * server), `atCommit` sends that mail in this process before the commit returns (tests, where the
 * queue does not run; a failed send is left to the job's retries as in production).
 */
export type MailDelivery = 'queue' | 'atCommit';

export class MailOutbox {
  private readonly transactions: Transactions;
  private readonly repository: MailOutboxRepository;
  private readonly clock: Clock;
  private readonly whenFiled: (id: string) => Promise<void>;

  constructor(
    transactions: Transactions,
    repository: MailOutboxRepository,
    clock: Clock,
    whenFiled: (id: string) => Promise<void>,
  ) {
    this.transactions = transactions;
    this.repository = repository;
    this.clock = clock;
    this.whenFiled = whenFiled;
  }

  /** Files the mail in the transaction in progress (or one of its own); it leaves once that commits. */
  async file(message: MailMessage, kind: string): Promise<void> {
    await this.transactions.run(async () => {
      const now = this.clock.now();
      const id = newId();
      await this.repository.insert({
        id,
        kind,
        recipient: message.to,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html,
        headers: message.headers ?? null,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        claimedUntil: null,
        lastError: null,
        createdAt: now,
        finishedAt: null,
      });
      await this.transactions.afterCommit(() => this.whenFiled(id));
    });
  }

  /** Deletes every mail to the address, sent or not (an erased account's: nothing may name it). */
  forgetRecipient(address: string): Promise<void> {
    return this.repository.forgetRecipient(address);
  }

  /** The `mail` counts of GET /admin/stats. */
  stats(since: StatsSince): Promise<OutboxCounts> {
    return this.repository.stats(since);
  }
}
