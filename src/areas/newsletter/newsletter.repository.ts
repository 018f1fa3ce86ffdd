/** All SQL of the newsletter: subscribers (one row per address) and their mailed tokens. */
import { and, count, eq, gte, isNull, sql } from 'drizzle-orm';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import {
  type NewsletterTokenPurpose,
  type NewsletterTokenRow,
  newsletterSubscribers,
  newsletterTokens,
  type SubscriberRow,
  type SubscriberStatus,
} from './tables.ts';

/** The admin list, newest first. */
export const subscribersKeyset = newestFirst<SubscriberRow>('newsletter-subscribers', newsletterSubscribers);

export class NewsletterRepository extends Repository {
  /** Inserts the address if it is new (two requests at once give one row); then locks its row. */
  async upsertAndLock(row: {
    id: string;
    email: string;
    locale: string;
    now: Date;
  }): Promise<{ subscriber: SubscriberRow; created: boolean }> {
    const [inserted] = await this.db
      .insert(newsletterSubscribers)
      .values({
        id: row.id,
        email: row.email,
        status: 'pending',
        locale: row.locale,
        createdAt: row.now,
        updatedAt: row.now,
      })
      .onConflictDoNothing()
      .returning();
    const [locked] = await this.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, row.email))
      .for('update');
    if (locked === undefined) throw new Error('newsletter subscriber vanished');
    return { subscriber: locked, created: inserted !== undefined };
  }

  async update(
    id: string,
    values: Partial<Pick<SubscriberRow, 'status' | 'locale' | 'updatedAt' | 'confirmedAt' | 'unsubscribedAt'>>,
  ): Promise<SubscriberRow> {
    const [row] = await this.db
      .update(newsletterSubscribers)
      .set(values)
      .where(eq(newsletterSubscribers.id, id))
      .returning();
    if (row === undefined) throw new Error('newsletter subscriber vanished');
    return row;
  }

  async findById(id: string): Promise<SubscriberRow | null> {
    const [row] = await this.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id));
    return row ?? null;
  }

  async lockById(id: string): Promise<SubscriberRow | null> {
    const [row] = await this.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, id))
      .for('update');
    return row ?? null;
  }

  async insertToken(row: NewsletterTokenRow): Promise<void> {
    await this.db.insert(newsletterTokens).values(row);
  }

  async findToken(tokenHash: string, purpose: NewsletterTokenPurpose): Promise<NewsletterTokenRow | null> {
    const [row] = await this.db
      .select()
      .from(newsletterTokens)
      .where(and(eq(newsletterTokens.tokenHash, tokenHash), eq(newsletterTokens.purpose, purpose)));
    return row ?? null;
  }

  /** Spends a subscriber's open tokens of a purpose (every confirmation link, once confirmed or unsubscribed). */
  async useAllTokens(subscriberId: string, purpose: NewsletterTokenPurpose, now: Date): Promise<void> {
    await this.db
      .update(newsletterTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(newsletterTokens.subscriberId, subscriberId),
          eq(newsletterTokens.purpose, purpose),
          isNull(newsletterTokens.usedAt),
        ),
      );
  }

  async countTokensSince(subscriberId: string, purpose: NewsletterTokenPurpose, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ count: count() })
      .from(newsletterTokens)
      .where(
        and(
          eq(newsletterTokens.subscriberId, subscriberId),
          eq(newsletterTokens.purpose, purpose),
          gte(newsletterTokens.createdAt, since),
        ),
      );
    return Number(row?.count ?? 0);
  }

  async list(status: SubscriberStatus | undefined, page: PageRequest): Promise<SubscriberRow[]> {
    const { where, orderBy } = keyset(subscribersKeyset, page);
    return this.db
      .select()
      .from(newsletterSubscribers)
      .where(and(status === undefined ? undefined : eq(newsletterSubscribers.status, status), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async countByStatus(status: SubscriberStatus | undefined): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(newsletterSubscribers)
      .where(status === undefined ? undefined : eq(newsletterSubscribers.status, status));
    return row?.count ?? 0;
  }

  /**
   * An erased account (`user.erasing`): the subscription of its e-mail address, if any, and its
   * tokens. The address is the person's; their deletion request covers it.
   */
  async eraseEmail(email: string): Promise<void> {
    await this.db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, sql`lower(trim(${email}))`));
  }

  /** The data export's newsletter subscription of an address (never its tokens), if any. */
  async exportRow(email: string): Promise<SubscriberRow | null> {
    const [row] = await this.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, sql`lower(trim(${email}))`));
    return row ?? null;
  }
}
