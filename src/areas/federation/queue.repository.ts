/**
 * All SQL of Fedify's message queue (federation_queue). A message is claimed by one instance at a
 * time (a lease: claimed_until), skipping rows another transaction is claiming, and the first of
 * its ordering key only, so messages sharing a key run one after the other.
 */
import { eq, gt, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { nameOf, namesOf } from '../../platform/db/column-names.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { federationQueue as q } from './tables.ts';

export interface QueuedMessage {
  sealedMessage: string;
  orderingKey: string | null;
  runAfter: Date;
}

export interface ClaimedMessage {
  seq: number;
  sealedMessage: string;
  attempts: number;
}

const earlier = alias(q, 'earlier');

export class QueueRepository extends Repository {
  async insert(messages: readonly QueuedMessage[], now: Date): Promise<void> {
    if (messages.length === 0) return;
    await this.db.insert(q).values(messages.map((message) => ({ ...message, createdAt: now })));
  }

  /** The next due message, claimed until `leaseUntil`, or null. */
  async claimNext(now: Date, leaseUntil: Date): Promise<ClaimedMessage | null> {
    const [row] = await queryRows<{ seq: string | number; sealedMessage: string; attempts: number }>(
      this.db,
      sql`UPDATE ${q} SET ${nameOf(q.claimedUntil)} = ${leaseUntil}, ${nameOf(q.attempts)} = ${q.attempts} + 1
          WHERE ${q.seq} = (
            SELECT ${q.seq} FROM ${q}
            WHERE ${q.runAfter} <= ${now}
              AND (${q.claimedUntil} IS NULL OR ${q.claimedUntil} < ${now})
              AND (${q.orderingKey} IS NULL OR NOT EXISTS (
                SELECT 1 FROM ${q} AS ${earlier}
                WHERE ${earlier.orderingKey} = ${q.orderingKey} AND ${earlier.seq} < ${q.seq}))
            ORDER BY ${q.runAfter}, ${q.seq}
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
          RETURNING ${namesOf(q.seq)}, ${nameOf(q.sealedMessage)} AS "sealedMessage", ${nameOf(q.attempts)}`,
    );
    return row === undefined
      ? null
      : { seq: Number(row.seq), sealedMessage: row.sealedMessage, attempts: row.attempts };
  }

  async delete(seq: number): Promise<void> {
    await this.db.delete(q).where(eq(q.seq, seq));
  }

  /** A message whose handler failed: released, to run again after `runAfter`. */
  async release(seq: number, runAfter: Date): Promise<void> {
    await this.db.update(q).set({ claimedUntil: null, runAfter }).where(eq(q.seq, seq));
  }

  /** A message held back unsent (its domain backed off): released until `runAfter`, its claim not counted. */
  async hold(seq: number, runAfter: Date): Promise<void> {
    await this.db
      .update(q)
      .set({ claimedUntil: null, runAfter, attempts: sql`greatest(${q.attempts} - 1, 0)` })
      .where(eq(q.seq, seq));
  }

  /** Messages waiting (not claimed): due now, and later. */
  async depth(now: Date): Promise<{ ready: number; delayed: number }> {
    const [row] = await this.db
      .select({
        ready: sql<number>`(count(*) FILTER (WHERE ${lte(q.runAfter, now)}))::int`,
        delayed: sql<number>`(count(*) FILTER (WHERE ${gt(q.runAfter, now)}))::int`,
      })
      .from(q)
      .where(sql`${q.claimedUntil} IS NULL OR ${q.claimedUntil} < ${now}`);
    return { ready: row?.ready ?? 0, delayed: row?.delayed ?? 0 };
  }
}
