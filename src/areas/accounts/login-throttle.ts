/**
 * Login lockout, counted on failures only (a successful sign-in uses none of the budget), per account
 * (its id, whatever spelling named it: e-mail or username; an unknown name is counted per normalized
 * spelling, so it locks exactly like an account and tells nothing) and per client IP:
 *
 * - an (account, IP) pair with `pairFailures` failures in its window is refused (429) until the
 *   window ends, whatever the password: guessing from one place stops there;
 * - an account with `accountFailures` failures in its window, from anywhere, also refuses every IP
 *   that has failed on it at least once in the pair's window: a botnet gets one guess per address.
 *
 * An IP that has not been failing on the account is never refused by failures from elsewhere, so a
 * stranger cannot lock the owner out. The per-IP rule of the route (all requests) still applies.
 * Counters live in the rate-limit store (memory or Redis), and are off with RATE_LIMITS=off.
 */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { RateLimitStore } from '../../platform/http/rate-limit.ts';

/** The numbers docs/api.md states. */
export const loginLockout = {
  pairFailures: 10,
  pairWindowSeconds: 15 * 60,
  accountFailures: 50,
  accountWindowSeconds: 60 * 60,
} as const;

export class LoginThrottle {
  private readonly store: RateLimitStore;
  private readonly clock: Clock;
  private readonly enabled: boolean;

  constructor(options: { store: RateLimitStore; clock: Clock; enabled: boolean }) {
    this.store = options.store;
    this.clock = options.clock;
    this.enabled = options.enabled;
  }

  static #keys(account: string, ip: string) {
    return { pair: `login-failures:pair:${account}:${ip}`, account: `login-failures:account:${account}` };
  }

  /** Throws 429 rateLimited when this (account, IP) may not try now; `account` is an id or `name:<spelling>`. */
  async check(account: string, ip: string): Promise<void> {
    if (!this.enabled) return;
    const keys = LoginThrottle.#keys(account, ip);
    const [pair, total] = await Promise.all([this.store.peek(keys.pair), this.store.peek(keys.account)]);
    if (pair === null) return;
    let resetAt: number | null = null;
    if (pair.count >= loginLockout.pairFailures) resetAt = pair.resetAt;
    else if (total !== null && total.count >= loginLockout.accountFailures)
      resetAt = Math.min(pair.resetAt, total.resetAt);
    if (resetAt === null) return;
    const seconds = Math.max(1, Math.ceil((resetAt - this.clock.now().getTime()) / 1000));
    throw new AppError('rateLimited', {
      values: { seconds },
      detail: 'too many failed sign-ins for this account from this address',
      meta: { rule: 'login:failures', limit: loginLockout.pairFailures, windowSeconds: loginLockout.pairWindowSeconds },
      headers: { 'Retry-After': String(seconds) },
    });
  }

  /** Counts one failed sign-in of this (account, IP). */
  async fail(account: string, ip: string): Promise<void> {
    if (!this.enabled) return;
    const keys = LoginThrottle.#keys(account, ip);
    await Promise.all([
      this.store.hit(keys.pair, loginLockout.pairWindowSeconds * 1000),
      this.store.hit(keys.account, loginLockout.accountWindowSeconds * 1000),
    ]);
  }
}
