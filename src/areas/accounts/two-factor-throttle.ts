/**
 * Wrong two-factor codes are limited (counted on failures only, in the rate-limit store):
 * - per account: `accountFailures` wrong codes (TOTP or recovery, on any route that takes one) in
 *   `accountWindowSeconds` refuse every code of the account (429) until the window ends; off with
 *   RATE_LIMITS=off, as the login lockout is;
 * - per attempt: a sign-in ticket takes `ticketFailures` wrong codes, then is void (401
 *   twoFactorTicketInvalid: sign in again), whatever RATE_LIMITS says (it is part of the ticket).
 */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { RateLimitStore } from '../../platform/http/rate-limit.ts';
import { ticketTtlMs } from './two-factor-tickets.ts';

/** The numbers docs/api.md states. */
export const twoFactorLockout = {
  accountFailures: 10,
  accountWindowSeconds: 15 * 60,
  ticketFailures: 5,
} as const;

export interface TwoFactorThrottleDeps {
  store: RateLimitStore;
  clock: Clock;
  enabled: boolean;
}

export class TwoFactorThrottle {
  readonly #deps: TwoFactorThrottleDeps;

  constructor(deps: TwoFactorThrottleDeps) {
    this.#deps = deps;
  }

  /** Throws 429 when the account's budget of wrong codes is spent, 401 when the ticket's is. */
  async check(userId: string, ticketId: string | null): Promise<void> {
    if (ticketId !== null) {
      const spent = await this.#deps.store.peek(`two-factor-failures:ticket:${ticketId}`);
      if (spent !== null && spent.count >= twoFactorLockout.ticketFailures) {
        throw new AppError('twoFactorTicketInvalid', {
          source: { pointer: '/ticket' },
          detail: 'too many wrong codes for this sign-in: sign in again',
        });
      }
    }
    if (!this.#deps.enabled) return;
    const account = await this.#deps.store.peek(`two-factor-failures:account:${userId}`);
    if (account === null || account.count < twoFactorLockout.accountFailures) return;
    const seconds = Math.max(1, Math.ceil((account.resetAt - this.#deps.clock.now().getTime()) / 1000));
    throw new AppError('rateLimited', {
      values: { seconds },
      detail: 'too many wrong two-factor codes for this account',
      meta: {
        rule: 'two-factor:failures',
        limit: twoFactorLockout.accountFailures,
        windowSeconds: twoFactorLockout.accountWindowSeconds,
      },
      headers: { 'Retry-After': String(seconds) },
    });
  }

  /** Counts one wrong code of the account (and of the ticket, for a sign-in). */
  async fail(userId: string, ticketId: string | null): Promise<void> {
    const hits: Promise<unknown>[] = [];
    if (ticketId !== null) hits.push(this.#deps.store.hit(`two-factor-failures:ticket:${ticketId}`, ticketTtlMs));
    if (this.#deps.enabled) {
      hits.push(
        this.#deps.store.hit(`two-factor-failures:account:${userId}`, twoFactorLockout.accountWindowSeconds * 1000),
      );
    }
    await Promise.all(hits);
  }
}
