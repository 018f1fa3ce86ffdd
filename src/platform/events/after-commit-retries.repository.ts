/** All SQL of the after-commit retries: filing a failure, the due rows, each retry's outcome. */
import { and, eq, sql } from 'drizzle-orm';
import { Repository } from '../db/repository.ts';
import { newId } from '../ids/ids.ts';
import { type AfterCommitRetryRow, afterCommitRetries } from './tables.ts';

export type DueRetry = Pick<AfterCommitRetryRow, 'work' | 'key' | 'filing' | 'attempts'>;

export class AfterCommitRetriesRepository extends Repository {
  /** A failure of `work` for `key`: due at `at`, its attempts counted again from none. */
  async file(work: string, key: string, error: string, at: Date): Promise<void> {
    const row = { work, key, filing: newId(), attempts: 0, nextAttemptAt: at, lastError: error, filedAt: at };
    await this.db
      .insert(afterCommitRetries)
      .values(row)
      .onConflictDoUpdate({
        target: [afterCommitRetries.work, afterCommitRetries.key],
        set: { filing: row.filing, attempts: 0, nextAttemptAt: at, lastError: error, filedAt: at },
      });
  }

  /**
   * Claims the rows due at `now`, longest waiting first, until `until` (a run that stops midway leaves
   * them to the first run after that). SKIP LOCKED lets a run at the same moment on another instance
   * claim other rows instead of the same ones.
   */
  claimDue(now: Date, until: Date, limit: number): Promise<DueRetry[]> {
    const r = afterCommitRetries;
    const due = sql`SELECT ${r.work}, ${r.key} FROM ${r} WHERE ${r.nextAttemptAt} <= ${now.toISOString()}::timestamptz
      ORDER BY ${r.nextAttemptAt}, ${r.work}, ${r.key} LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
    return this.db
      .update(r)
      .set({ nextAttemptAt: until })
      .where(sql`(${r.work}, ${r.key}) IN (${due})`)
      .returning({ work: r.work, key: r.key, filing: r.filing, attempts: r.attempts });
  }

  /** Forgets what waits under this work and key (an erased user's). */
  async forget(work: string, key: string): Promise<void> {
    const r = afterCommitRetries;
    await this.db.delete(r).where(and(eq(r.work, work), eq(r.key, key)));
  }

  /** The retry of this filing succeeded, or was given up: the row goes, unless a later failure was filed since. */
  async remove(retry: DueRetry): Promise<void> {
    await this.db.delete(afterCommitRetries).where(this.#filing(retry));
  }

  /** The retry of this filing failed: tried again at `nextAttemptAt`. */
  async failedAgain(retry: DueRetry, error: string, nextAttemptAt: Date): Promise<void> {
    await this.db
      .update(afterCommitRetries)
      .set({ attempts: sql`${afterCommitRetries.attempts} + 1`, nextAttemptAt, lastError: error })
      .where(this.#filing(retry));
  }

  /** How many rows wait, due or not (the job's report). */
  async waiting(): Promise<number> {
    const [row] = await this.db.select({ count: sql<number>`count(*)::int` }).from(afterCommitRetries);
    return row?.count ?? 0;
  }

  #filing({ work, key, filing }: DueRetry) {
    const r = afterCommitRetries;
    return and(eq(r.work, work), eq(r.key, key), eq(r.filing, filing));
  }
}
