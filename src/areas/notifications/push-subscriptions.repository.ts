/** All SQL of Web Push: the users' push subscriptions and what each one received. */
import { and, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { namesOf } from '../../platform/db/column-names.ts';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { type PushSubscriptionRow, pushDeliveries, pushSubscriptions } from './tables.ts';

/** GET /api/users/me/push-subscriptions: newest first. */
export const pushSubscriptionsKeyset = newestFirst<PushSubscriptionRow>('pushSubscriptions', pushSubscriptions);

const s = pushSubscriptions;

export class PushSubscriptionsRepository extends Repository {
  /**
   * Registers an endpoint for a user: a new row, or the endpoint's row (whoever had it: a browser
   * profile has one user at a time) given to this user with the new keys, locale and time.
   */
  async upsert(row: PushSubscriptionRow): Promise<PushSubscriptionRow> {
    const { id: _kept, ...changes } = row;
    const [saved] = await this.db
      .insert(s)
      .values(row)
      .onConflictDoUpdate({ target: s.endpoint, set: changes })
      .returning();
    return returned(saved, 'pushSubscriptions.upsert');
  }

  /** Deletes the user's subscriptions beyond the `keep` newest. */
  async pruneBeyond(userId: string, keep: number): Promise<void> {
    const newest = this.db
      .select({ id: s.id })
      .from(s)
      .where(eq(s.userId, userId))
      .orderBy(sql`${s.createdAt} DESC, ${s.id} DESC`)
      .limit(keep);
    await this.db.delete(s).where(and(eq(s.userId, userId), notInArray(s.id, newest)));
  }

  list(userId: string, page: PageRequest): Promise<PushSubscriptionRow[]> {
    const { where, orderBy } = keyset(pushSubscriptionsKeyset, page);
    return this.db
      .select()
      .from(s)
      .where(and(eq(s.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** Every subscription of a user (at most the limit a user): the flush's targets. */
  ofUser(userId: string): Promise<PushSubscriptionRow[]> {
    return this.db.select().from(s).where(eq(s.userId, userId)).orderBy(s.createdAt, s.id);
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(s)
      .where(and(eq(s.userId, userId), eq(s.id, id)))
      .returning({ id: s.id });
    return rows.length > 0;
  }

  async deleteEndpoint(userId: string, endpoint: string): Promise<void> {
    await this.db.delete(s).where(and(eq(s.userId, userId), eq(s.endpoint, endpoint)));
  }

  /** The push service said it is gone (404, 410): delete it, unless it was registered again since (new keys). */
  async deleteGone(id: string, p256dh: string): Promise<void> {
    await this.db.delete(s).where(and(eq(s.id, id), eq(s.p256dh, p256dh)));
  }

  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(s).where(eq(s.userId, userId));
  }

  /** Which of these subscriptions already accepted the push of this key. */
  async deliveredTo(subscriptionIds: string[], pushKey: string): Promise<Set<string>> {
    if (subscriptionIds.length === 0) return new Set();
    const rows = await this.db
      .select({ id: pushDeliveries.subscriptionId })
      .from(pushDeliveries)
      .where(and(eq(pushDeliveries.pushKey, pushKey), inArray(pushDeliveries.subscriptionId, subscriptionIds)));
    return new Set(rows.map((row) => row.id));
  }

  /** Records a delivery; nothing when the subscription was deleted meanwhile. */
  async recordDelivery(subscriptionId: string, pushKey: string, at: Date): Promise<void> {
    await this.db.execute(
      sql`INSERT INTO ${pushDeliveries} (${namesOf(pushDeliveries.subscriptionId, pushDeliveries.pushKey, pushDeliveries.deliveredAt)})
          SELECT ${s.id}, ${pushKey}, ${at} FROM ${s} WHERE ${s.id} = ${subscriptionId}
          ON CONFLICT DO NOTHING`,
    );
  }

  /** Forgets deliveries recorded before `before` (a push older than that is never retried). */
  async forgetDeliveriesBefore(before: Date): Promise<void> {
    await this.db.delete(pushDeliveries).where(lt(pushDeliveries.deliveredAt, before));
  }

  /** The user's subscriptions for their data export, without the browser's keys. */
  exportRows(userId: string, after: string | null, limit: number) {
    return this.db
      .select({ id: s.id, endpoint: s.endpoint, locale: s.locale, createdAt: s.createdAt })
      .from(s)
      .where(and(eq(s.userId, userId), after === null ? undefined : sql`${s.id} > ${after}`))
      .orderBy(s.id)
      .limit(limit);
  }
}
