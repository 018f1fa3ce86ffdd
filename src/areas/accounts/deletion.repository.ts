/** SQL of account deletion on accounts' own tables: the re-authentication check, due erasures, the final delete. */
import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { type SessionRow, sessions, users, userTokens } from './tables.ts';

export class DeletionRepository extends Repository {
  /** How and when the session was opened (the re-authentication rule of DELETE /api/users/me). */
  async sessionOpening(sessionId: string): Promise<Pick<SessionRow, 'signInMethod' | 'createdAt'> | null> {
    const [row] = await this.db
      .select({ signInMethod: sessions.signInMethod, createdAt: sessions.createdAt })
      .from(sessions)
      .where(eq(sessions.id, sessionId));
    return row ?? null;
  }

  /** Accounts whose deletion was confirmed at or before `cutoff`, the oldest first (at most `limit`). */
  async dueForErasure(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(isNotNull(users.deletionRequestedAt), lte(users.deletionRequestedAt, cutoff)))
      .orderBy(asc(users.deletionRequestedAt), asc(users.id))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  /**
   * Accounts' own rows of the user, last of the erasure: the link from the accounts it sponsored,
   * its single-use tokens, its sessions (already ended at confirmation) and the user row itself.
   */
  async deleteUser(userId: string): Promise<void> {
    await this.db.update(users).set({ sponsoredBy: null }).where(eq(users.sponsoredBy, userId));
    await this.db.delete(userTokens).where(eq(userTokens.userId, userId));
    await this.db.delete(sessions).where(eq(sessions.userId, userId));
    await this.db.delete(users).where(eq(users.id, userId));
  }
}
