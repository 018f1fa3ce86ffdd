/** All SQL of identities: the user_identities table. */
import { and, asc, eq, gt } from 'drizzle-orm';
import type { ProviderName } from '../../adapters/identity/index.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { type IdentityRow, userIdentities } from './tables.ts';

export class IdentitiesRepository extends Repository {
  async findBySubject(provider: ProviderName, subject: string): Promise<IdentityRow | null> {
    const [row] = await this.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)));
    return row ?? null;
  }

  /** A user's identities (at most one per provider, so at most three), oldest link first. */
  listForUser(userId: string): Promise<IdentityRow[]> {
    return this.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, userId))
      .orderBy(asc(userIdentities.linkedAt), asc(userIdentities.id));
  }

  async insert(row: IdentityRow): Promise<IdentityRow> {
    const [inserted] = await this.db.insert(userIdentities).values(row).returning();
    return returned(inserted, 'user_identities.insert');
  }

  async recordSignIn(id: string, email: string | null, at: Date): Promise<IdentityRow> {
    const [row] = await this.db
      .update(userIdentities)
      .set({ email, lastSignInAt: at })
      .where(eq(userIdentities.id, id))
      .returning();
    if (row === undefined) throw new Error('identity vanished');
    return row;
  }

  async delete(userId: string, provider: ProviderName): Promise<boolean> {
    const rows = await this.db
      .delete(userIdentities)
      .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)))
      .returning({ id: userIdentities.id });
    return rows.length === 1;
  }

  async deleteNotProvingAccountEmail(userId: string): Promise<number> {
    const rows = await this.db
      .delete(userIdentities)
      .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provesAccountEmail, false)))
      .returning({ id: userIdentities.id });
    return rows.length;
  }

  async deleteAllOfUser(userId: string): Promise<number> {
    const rows = await this.db
      .delete(userIdentities)
      .where(eq(userIdentities.userId, userId))
      .returning({ id: userIdentities.id });
    return rows.length;
  }

  /** The export's batches, in id order after `after`. */
  exportBatch(userId: string, after: string | null, limit: number): Promise<IdentityRow[]> {
    return this.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.userId, userId), after === null ? undefined : gt(userIdentities.id, after)))
      .orderBy(asc(userIdentities.id))
      .limit(limit);
  }
}
