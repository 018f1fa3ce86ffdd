/** SQL of two-factor authentication and sign-in devices, on accounts' own tables (migration 1700). */
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import {
  type SignInDeviceRow,
  signInDevices,
  type TwoFactorRow,
  twoFactorRecoveryCodes,
  twoFactorSpentTickets,
  userTwoFactor,
} from './tables.ts';

export class TwoFactorRepository extends Repository {
  async find(userId: string): Promise<TwoFactorRow | null> {
    const [row] = await this.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
    return row ?? null;
  }

  async isEnabled(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ enabledAt: userTwoFactor.enabledAt })
      .from(userTwoFactor)
      .where(eq(userTwoFactor.userId, userId));
    return row?.enabledAt != null;
  }

  /** A new enrolment, replacing one that waited for its first code (never one that is on: the caller checked under the user's lock). */
  async upsertPending(userId: string, secretCiphertext: string, now: Date): Promise<void> {
    await this.db
      .insert(userTwoFactor)
      .values({ userId, secretCiphertext, createdAt: now, enabledAt: null, lastUsedStep: null })
      .onConflictDoUpdate({
        target: userTwoFactor.userId,
        set: { secretCiphertext, createdAt: now, enabledAt: null, lastUsedStep: null },
      });
  }

  async enable(userId: string, now: Date): Promise<void> {
    await this.db.update(userTwoFactor).set({ enabledAt: now }).where(eq(userTwoFactor.userId, userId));
  }

  /**
   * Records `step` as the last accepted one; false when a code of this step or a later one was
   * accepted already (a replay, or a concurrent request with the same code).
   */
  async useStep(userId: string, step: number): Promise<boolean> {
    const used = await this.db
      .update(userTwoFactor)
      .set({ lastUsedStep: step })
      .where(
        and(
          eq(userTwoFactor.userId, userId),
          or(isNull(userTwoFactor.lastUsedStep), lt(userTwoFactor.lastUsedStep, step)),
        ),
      )
      .returning({ userId: userTwoFactor.userId });
    return used.length > 0;
  }

  /** Two-factor off: the secret and every recovery code go. Whether there was anything to remove. */
  async remove(userId: string): Promise<boolean> {
    await this.db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    const removed = await this.db
      .delete(userTwoFactor)
      .where(eq(userTwoFactor.userId, userId))
      .returning({ userId: userTwoFactor.userId });
    return removed.length > 0;
  }

  /** A new set of recovery codes; the previous set is void. */
  async replaceRecoveryCodes(userId: string, codeHashes: string[], now: Date, newId: () => string): Promise<void> {
    await this.db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await this.db
      .insert(twoFactorRecoveryCodes)
      .values(codeHashes.map((codeHash) => ({ id: newId(), userId, codeHash, createdAt: now, usedAt: null })));
  }

  /** Spends the recovery code; false when it is not one of the account's unused codes. */
  async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
    const used = await this.db
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(twoFactorRecoveryCodes.userId, userId),
          eq(twoFactorRecoveryCodes.codeHash, codeHash),
          isNull(twoFactorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    return used.length > 0;
  }

  async unusedRecoveryCodes(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(twoFactorRecoveryCodes)
      .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
    return row?.count ?? 0;
  }

  /** Spends a ticket; false when it was spent already. The user's expired spent tickets go at the same time. */
  async spendTicket(ticketId: string, userId: string, expiresAt: Date, now: Date): Promise<boolean> {
    await this.db
      .delete(twoFactorSpentTickets)
      .where(and(eq(twoFactorSpentTickets.userId, userId), lt(twoFactorSpentTickets.expiresAt, now)));
    const spent = await this.db
      .insert(twoFactorSpentTickets)
      .values({ ticketId, userId, expiresAt })
      .onConflictDoNothing()
      .returning({ ticketId: twoFactorSpentTickets.ticketId });
    return spent.length > 0;
  }

  // ---- sign-in devices ----

  /** Whether the account has any device on record (its first sign-in is nobody's news). */
  async hasDevices(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: signInDevices.userId })
      .from(signInDevices)
      .where(eq(signInDevices.userId, userId))
      .limit(1);
    return row !== undefined;
  }

  /** Records a sign-in from a device; answers when it was last seen before (null: never). */
  async recordDevice(device: Omit<SignInDeviceRow, 'firstSeenAt' | 'lastSeenAt'>, now: Date): Promise<Date | null> {
    const [before] = await this.db
      .select({ lastSeenAt: signInDevices.lastSeenAt })
      .from(signInDevices)
      .where(and(eq(signInDevices.userId, device.userId), eq(signInDevices.deviceKey, device.deviceKey)));
    await this.db
      .insert(signInDevices)
      .values({ ...device, firstSeenAt: now, lastSeenAt: now })
      .onConflictDoUpdate({
        target: [signInDevices.userId, signInDevices.deviceKey],
        set: { lastSeenAt: now, userAgent: device.userAgent },
      });
    return before?.lastSeenAt ?? null;
  }

  // ---- export and erasure ----

  /** The data export's two-factor state: whether it is on and since when, never the secret. */
  async exportTwoFactor(userId: string) {
    const [row] = await this.db
      .select({ enabledAt: userTwoFactor.enabledAt, createdAt: userTwoFactor.createdAt })
      .from(userTwoFactor)
      .where(and(eq(userTwoFactor.userId, userId)));
    if (row === undefined) return null;
    return {
      enabled: row.enabledAt !== null,
      enabledAt: row.enabledAt,
      unusedRecoveryCodes: await this.unusedRecoveryCodes(userId),
    };
  }

  /** The data export's devices, in keyset batches by key. */
  async exportDevices(userId: string, after: string | null, limit: number) {
    return this.db
      .select()
      .from(signInDevices)
      .where(and(eq(signInDevices.userId, userId), after === null ? undefined : gt(signInDevices.deviceKey, after)))
      .orderBy(signInDevices.deviceKey)
      .limit(limit);
  }

  /** Everything two-factor and sign-in devices keep of a user (erasure, anonymization). */
  async eraseUser(userId: string): Promise<void> {
    await this.remove(userId);
    await this.db.delete(twoFactorSpentTickets).where(eq(twoFactorSpentTickets.userId, userId));
    await this.db.delete(signInDevices).where(eq(signInDevices.userId, userId));
  }
}
