/** All SQL of data-export: the export leases (one running export per user, across instances). */
import { and, eq, lte } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { type ExportLeaseRow, exportLeases } from './tables.ts';

export class DataExportRepository extends Repository {
  /** Takes the user's lease for `holder` unless another holder's lease is still running; true when taken. */
  async acquire(userId: string, holder: string, now: Date, expiresAt: Date): Promise<boolean> {
    const taken = await this.db
      .insert(exportLeases)
      .values({ userId, holder, startedAt: now, expiresAt })
      .onConflictDoUpdate({
        target: exportLeases.userId,
        set: { holder, startedAt: now, expiresAt },
        // An expired lease is one whose instance died (or stalled): it is taken over.
        setWhere: lte(exportLeases.expiresAt, now),
      })
      .returning({ holder: exportLeases.holder });
    return taken.length > 0;
  }

  /** Pushes the lease's end back while its export streams; false when the holder lost it. */
  async renew(userId: string, holder: string, expiresAt: Date): Promise<boolean> {
    const renewed = await this.db
      .update(exportLeases)
      .set({ expiresAt })
      .where(and(eq(exportLeases.userId, userId), eq(exportLeases.holder, holder)))
      .returning({ holder: exportLeases.holder });
    return renewed.length > 0;
  }

  async release(userId: string, holder: string): Promise<void> {
    await this.db.delete(exportLeases).where(and(eq(exportLeases.userId, userId), eq(exportLeases.holder, holder)));
  }

  async find(userId: string): Promise<ExportLeaseRow | null> {
    const [row] = await this.db.select().from(exportLeases).where(eq(exportLeases.userId, userId));
    return row ?? null;
  }

  /** An erased account's lease (user.erasing). */
  async deleteOfUser(userId: string): Promise<void> {
    await this.db.delete(exportLeases).where(eq(exportLeases.userId, userId));
  }
}
