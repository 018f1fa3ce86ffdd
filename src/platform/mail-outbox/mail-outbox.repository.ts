/** All SQL of the mail outbox: filing, the sender's claims and outcomes, retention, statistics. */
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { Repository } from '../db/repository.ts';
import { returned } from '../db/returned.ts';
import { queryRows } from '../db/rows.ts';
import type { CreatedCounts, StatsSince } from '../stats/stats.ts';
import { type MailStatus, mailOutbox, type OutboxRow } from './tables.ts';

/** GET /admin/stats' `mail`: rows filed (total and per window), and the outbox's state now. */
export interface OutboxCounts extends CreatedCounts {
  pending: number;
  sent: number;
  failed: number;
  /** Age in seconds of the oldest mail not sent yet; 0 when none waits. */
  oldestPendingSeconds: number;
}

export class MailOutboxRepository extends Repository {
  async insert(row: OutboxRow): Promise<void> {
    await this.db.insert(mailOutbox).values(row);
  }

  /**
   * Claims one due row (`only`: that row, if due) for `until`, counting an attempt: a pending row
   * whose time has come and that no sender holds. SKIP LOCKED lets a sender claiming at the same
   * moment take the next row instead of waiting for this one.
   */
  async claimDue(now: Date, until: Date, only?: string): Promise<OutboxRow | null> {
    const at = now.toISOString();
    const m = mailOutbox;
    const claimable = sql`${m.status} = 'pending' AND ${m.nextAttemptAt} <= ${at}::timestamptz
      AND (${m.claimedUntil} IS NULL OR ${m.claimedUntil} <= ${at}::timestamptz)`;
    const next = sql`(SELECT ${m.id} FROM ${m} WHERE ${claimable}
      ${only === undefined ? sql`` : sql`AND ${m.id} = ${only}`}
      ORDER BY ${m.nextAttemptAt}, ${m.id} LIMIT 1 FOR UPDATE SKIP LOCKED)`;
    const [row] = await this.db
      .update(mailOutbox)
      .set({ claimedUntil: until, attempts: sql`${mailOutbox.attempts} + 1` })
      .where(and(eq(mailOutbox.id, next), claimable))
      .returning();
    return row ?? null;
  }

  /** Sent: the body (links with tokens in them) is dropped, what and to whom stays for the retention period. */
  async markSent(id: string, at: Date): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set({ status: 'sent', finishedAt: at, claimedUntil: null, textBody: '', htmlBody: '', headers: null })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
  }

  /**
   * A failed attempt: the row waits until `nextAttemptAt`, or is given up (`failed`) when that is null;
   * a row given up loses its body as a sent one does (its links carry live tokens: a newsletter's
   * unsubscribe link lives a year), so nothing readable in the database can act for the address.
   * False when the row was no longer pending: another sender took it after this one's lease and
   * finished it (an instance that was frozen or starved past its lease).
   */
  async attemptFailed(id: string, error: string, at: Date, nextAttemptAt: Date | null): Promise<boolean> {
    const changed = await this.db
      .update(mailOutbox)
      .set(
        nextAttemptAt === null
          ? {
              status: 'failed',
              finishedAt: at,
              claimedUntil: null,
              lastError: error,
              textBody: '',
              htmlBody: '',
              headers: null,
            }
          : { nextAttemptAt, claimedUntil: null, lastError: error },
      )
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')))
      .returning({ id: mailOutbox.id });
    return changed.length > 0;
  }

  /** Deletes sent rows finished before `sentBefore` and failed ones before `failedBefore`; returns how many. */
  async deleteFinished(sentBefore: Date, failedBefore: Date): Promise<number> {
    const deleted = await this.db
      .delete(mailOutbox)
      .where(
        or(
          and(eq(mailOutbox.status, 'sent'), lt(mailOutbox.finishedAt, sentBefore)),
          and(eq(mailOutbox.status, 'failed'), lt(mailOutbox.finishedAt, failedBefore)),
        ),
      )
      .returning({ id: mailOutbox.id });
    return deleted.length;
  }

  /** Deletes every mail to an address, whatever its state (an erased account's). */
  async forgetRecipient(address: string): Promise<void> {
    await this.db.delete(mailOutbox).where(sql`lower(${mailOutbox.recipient}) = ${address.toLowerCase()}`);
  }

  async stats(since: StatsSince): Promise<OutboxCounts> {
    const m = mailOutbox;
    const after = (from: Date) =>
      sql`count(*) FILTER (WHERE ${m.createdAt} >= ${from.toISOString()}::timestamptz)::int`;
    const inState = (status: MailStatus) => sql`count(*) FILTER (WHERE ${m.status} = ${status})::int`;
    const [row] = await queryRows<OutboxCounts>(
      this.db,
      sql`SELECT count(*)::int AS "total", ${after(since.day)} AS "day", ${after(since.week)} AS "week",
                 ${after(since.month)} AS "month", ${inState('pending')} AS "pending", ${inState('sent')} AS "sent",
                 ${inState('failed')} AS "failed",
                 coalesce(floor(extract(epoch FROM ${since.now.toISOString()}::timestamptz
                   - min(${m.createdAt}) FILTER (WHERE ${m.status} = 'pending'))), 0)::int AS "oldestPendingSeconds"
          FROM ${m}`,
    );
    return returned(row, 'mail_outbox.stats');
  }
}
