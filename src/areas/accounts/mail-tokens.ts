/**
 * Single-use tokens sent by e-mail (confirmation, password reset, account deletion): random, only
 * their SHA-256 is stored, expiring. Checking a token tells apart unknown (422), used (422) and
 * expired (410). A new token leaves the earlier ones of its kind working: each flow spends them all
 * once it is done (docs/api.md), so a person who asked twice may follow either mail.
 */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { newId } from '../../platform/ids/ids.ts';
import { hashToken, newSecretToken } from '../../platform/secrets/opaque-tokens.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { TokenPurpose } from './tables.ts';

/** How long each kind of e-mailed token lives (docs/api.md states these). */
export const tokenLifetimesMs: Record<TokenPurpose, number> = {
  'confirm-email': 48 * 3_600_000,
  'reset-password': 3_600_000,
  'delete-account': 24 * 3_600_000,
};

const tokenPrefixes: Record<TokenPurpose, string> = {
  'confirm-email': 'tmc',
  'reset-password': 'tmr',
  'delete-account': 'tmd',
};

export type MailToken = NonNullable<Awaited<ReturnType<AccountsRepository['findToken']>>>;

export class MailTokens {
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Issues a new token of this purpose; the user's open ones keep working. */
  async issue(repository: AccountsRepository, userId: string, purpose: TokenPurpose): Promise<string> {
    const now = this.clock.now();
    const token = newSecretToken(tokenPrefixes[purpose]);
    await repository.insertToken({
      id: newId(),
      userId,
      purpose,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + tokenLifetimesMs[purpose]),
    });
    return token;
  }

  /** The stored token if it can still be used; otherwise the documented error. Writes nothing. */
  async check(repository: AccountsRepository, token: string, purpose: TokenPurpose): Promise<MailToken> {
    const found = await repository.findToken(hashToken(token), purpose);
    if (found === null) throw new AppError('invalidToken', { source: { pointer: '/token' } });
    if (found.usedAt !== null) throw new AppError('tokenUsed', { source: { pointer: '/token' } });
    if (found.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new AppError('tokenExpired', {
        source: { pointer: '/token' },
        meta: { expiredAt: formatTimestamp(found.expiresAt) },
      });
    }
    return found;
  }

  /** Marks a checked token used; a concurrent use of the same token loses with tokenUsed. */
  async spend(repository: AccountsRepository, token: MailToken): Promise<void> {
    if (!(await repository.useToken(token.id, this.clock.now()))) {
      throw new AppError('tokenUsed', { source: { pointer: '/token' } });
    }
  }
}
