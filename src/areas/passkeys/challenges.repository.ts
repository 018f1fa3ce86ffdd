/** All SQL of the passkey_challenges table. */
import { eq, lt } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { type PasskeyChallengeRow, passkeyChallenges } from './tables.ts';

export class ChallengesRepository extends Repository {
  async insert(row: PasskeyChallengeRow): Promise<void> {
    await this.db.insert(passkeyChallenges).values(row);
  }

  /** Takes the challenge out, whatever it is: a challenge answers one response only. */
  async take(challenge: string): Promise<PasskeyChallengeRow | null> {
    const [row] = await this.db.delete(passkeyChallenges).where(eq(passkeyChallenges.challenge, challenge)).returning();
    return row ?? null;
  }

  /** Challenges nobody answered in time (each options call sweeps them, so the table stays small). */
  async deleteExpired(now: Date): Promise<number> {
    const rows = await this.db
      .delete(passkeyChallenges)
      .where(lt(passkeyChallenges.expiresAt, now))
      .returning({ challenge: passkeyChallenges.challenge });
    return rows.length;
  }

  async deleteAllOfUser(userId: string): Promise<number> {
    const rows = await this.db
      .delete(passkeyChallenges)
      .where(eq(passkeyChallenges.userId, userId))
      .returning({ challenge: passkeyChallenges.challenge });
    return rows.length;
  }
}
