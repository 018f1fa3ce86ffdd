/**
 * The challenges of passkey registrations and sign-ins: random, kept in the database (any instance
 * may receive the response), single use and valid five minutes. A response names its challenge in
 * its clientDataJSON; taking it deletes it, so a second response with it finds nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import type { ChallengesRepository } from './challenges.repository.ts';
import type { ChallengePurpose } from './tables.ts';

export const challengeLifetimeMs = 5 * 60_000;

export interface IssuedChallenge {
  challenge: string;
  bytes: Uint8Array<ArrayBuffer>;
  expiresAt: Date;
}

export interface ChallengesDeps {
  repository: ChallengesRepository;
  clock: Clock;
}

export class Challenges {
  readonly #deps: ChallengesDeps;

  constructor(deps: ChallengesDeps) {
    this.#deps = deps;
  }

  /**
   * A new challenge: 32 random bytes, kept as their base64url (what clientDataJSON carries back);
   * expired ones are swept on the way.
   */
  async issue(purpose: ChallengePurpose, userId: string | null): Promise<IssuedChallenge> {
    const now = this.#deps.clock.now();
    await this.#deps.repository.deleteExpired(now);
    const bytes = randomBytes(32);
    const challenge = bytes.toString('base64url');
    const expiresAt = new Date(now.getTime() + challengeLifetimeMs);
    await this.#deps.repository.insert({ challenge, purpose, userId, createdAt: now, expiresAt });
    return { challenge, bytes: new Uint8Array(bytes), expiresAt };
  }

  /**
   * Spends the challenge a response names: true when it was issued for this purpose (and this user,
   * for a registration) and has not expired. Spent either way: one response per challenge.
   */
  async take(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<boolean> {
    const row = await this.#deps.repository.take(challenge);
    return (
      row !== null &&
      row.purpose === purpose &&
      row.userId === userId &&
      row.expiresAt.getTime() > this.#deps.clock.now().getTime()
    );
  }
}

/** The challenge a response's clientDataJSON (base64url JSON) names, or null when it names none. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (typeof data !== 'object' || data === null || !('challenge' in data)) return null;
    return typeof data.challenge === 'string' && data.challenge.length > 0 && data.challenge.length <= 200
      ? data.challenge
      : null;
  } catch {
    return null;
  }
}
