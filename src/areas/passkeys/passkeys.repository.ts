/** All SQL of the passkeys table. */
import { and, asc, count, eq, gt, lt, or, sql } from 'drizzle-orm';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { type PasskeyRow, passkeys } from './tables.ts';

/** GET /api/users/me/passkeys: newest first. */
export const passkeysKeyset = newestFirst<PasskeyRow>('passkeys', passkeys);

export class PasskeysRepository extends Repository {
  async countForUser(userId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    return Number(row?.n ?? 0);
  }

  list(userId: string, page: PageRequest): Promise<PasskeyRow[]> {
    const { where, orderBy } = keyset(passkeysKeyset, page);
    return this.db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** What the registration options exclude: the user's credentials (at most the limit per account). */
  credentialsOf(userId: string): Promise<Pick<PasskeyRow, 'credentialId' | 'transports'>[]> {
    return this.db
      .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
  }

  async findByCredentialId(credentialId: string): Promise<PasskeyRow | null> {
    const [row] = await this.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
    return row ?? null;
  }

  async insert(row: PasskeyRow): Promise<PasskeyRow> {
    const [inserted] = await this.db.insert(passkeys).values(row).returning();
    return returned(inserted, 'passkeys.insert');
  }

  /**
   * Records a sign-in with the counter the authenticator signed, only if the counter moved forward
   * (or both are 0: an authenticator that keeps none): false when it did not, or a concurrent
   * sign-in got there first with the same counter.
   */
  async recordUse(id: string, newCounter: number, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(passkeys)
      .set({ counter: newCounter, lastUsedAt: at })
      .where(
        and(
          eq(passkeys.id, id),
          or(lt(passkeys.counter, newCounter), and(eq(passkeys.counter, 0), sql`${newCounter}::bigint = 0`)),
        ),
      )
      .returning({ id: passkeys.id });
    return rows.length === 1;
  }

  async rename(userId: string, id: string, name: string): Promise<PasskeyRow | null> {
    const [row] = await this.db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
      .returning();
    return row ?? null;
  }

  async delete(userId: string, id: string): Promise<PasskeyRow | null> {
    const [row] = await this.db
      .delete(passkeys)
      .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
      .returning();
    return row ?? null;
  }

  async deleteAllOfUser(userId: string): Promise<number> {
    const rows = await this.db.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
    return rows.length;
  }

  /** The export's batches, in id order after `after`. */
  exportBatch(userId: string, after: string | null, limit: number): Promise<PasskeyRow[]> {
    return this.db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.userId, userId), after === null ? undefined : gt(passkeys.id, after)))
      .orderBy(asc(passkeys.id))
      .limit(limit);
  }
}
