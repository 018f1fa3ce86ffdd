/**
 * Fixed-window rate limits. Every /api and /admin route gets a default per-IP limit; routes may
 * declare their own rules in `config.rateLimit` (e.g. per IP and per account on login). Counters live
 * in memory (memory-rate-limit-store.ts, bounded), or in Redis when REDIS_URL is set so that every
 * instance shares them. Answers carry X-RateLimit-Limit / -Remaining / -Reset; a refusal is 429 with
 * Retry-After.
 *
 * Limits are counted once the body is parsed and before it is validated, so a request that fails
 * validation still counts. The rules of a route are counted in their declared order (per IP first)
 * and the first refusal stops the count: a request refused for its IP creates no per-account counter.
 */
import type { preValidationHookHandler } from 'fastify';
import type { Clock } from '../clock.ts';
import { AppError } from './error-catalogue.ts';
import type { App, RateLimitRule } from './types.ts';

export type { RateLimitRule } from './types.ts';

export interface RateLimitStore {
  /** Counts one hit and returns the count in the current window and when it resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** The count of a live window without counting a hit (null when none runs), e.g. login failures. */
  peek(key: string): Promise<{ count: number; resetAt: number } | null>;
  close?(): Promise<void>;
}

export const perIp = (name: string, max: number, windowSeconds: number): RateLimitRule => ({
  name: `${name}:ip`,
  max,
  windowSeconds,
  key: (request) => request.ip,
});

/** A rule keyed by a body field (lower-cased), e.g. the account a login or reset is aimed at. */
export const perBodyField = (name: string, field: string, max: number, windowSeconds: number): RateLimitRule => ({
  name: `${name}:account`,
  max,
  windowSeconds,
  key: (request) => {
    const value = (request.body as Record<string, unknown> | undefined)?.[field];
    return typeof value === 'string' && value !== '' ? value.trim().toLowerCase() : null;
  },
});

/** A rule keyed by the signed-in user (routes with auth 'user'; skipped for anonymous requests). */
export const perUser = (name: string, max: number, windowSeconds: number): RateLimitRule => ({
  name: `${name}:user`,
  max,
  windowSeconds,
  key: (request) => request.viewer?.userId ?? null,
});

export const defaultApiRule = perIp('api', 600, 60);

export function registerRateLimits(app: App, options: { enabled: boolean; store: RateLimitStore; clock: Clock }) {
  if (!options.enabled) {
    app.log.warn('rate limits are off (RATE_LIMITS=off)');
    return;
  }
  const hookFor =
    (rules: RateLimitRule[]): preValidationHookHandler =>
    async (request, reply) => {
      let tightest: { rule: RateLimitRule; count: number; resetAt: number } | null = null;
      for (const rule of rules) {
        const subject = rule.key(request);
        if (subject === null) continue;
        const { count, resetAt } = await options.store.hit(`${rule.name}:${subject}`, rule.windowSeconds * 1000);
        const remaining = rule.max - count;
        if (tightest === null || remaining < tightest.rule.max - tightest.count) tightest = { rule, count, resetAt };
        if (count > rule.max) break;
      }
      if (tightest === null) return;
      const now = options.clock.now().getTime();
      const resetSeconds = Math.max(1, Math.ceil((tightest.resetAt - now) / 1000));
      reply.header('X-RateLimit-Limit', tightest.rule.max);
      reply.header('X-RateLimit-Remaining', Math.max(0, tightest.rule.max - tightest.count));
      reply.header('X-RateLimit-Reset', resetSeconds);
      if (tightest.count > tightest.rule.max) {
        throw new AppError('rateLimited', {
          values: { seconds: resetSeconds },
          meta: { limit: tightest.rule.max, windowSeconds: tightest.rule.windowSeconds, rule: tightest.rule.name },
          headers: { 'Retry-After': String(resetSeconds) },
        });
      }
    };

  app.addHook('onRoute', (route) => {
    const isApi = route.url.startsWith('/api') || route.url.startsWith('/admin');
    const rules = route.config?.rateLimit ?? (isApi ? [defaultApiRule] : []);
    if (rules.length === 0) return;
    const existing = route.preValidation
      ? Array.isArray(route.preValidation)
        ? route.preValidation
        : [route.preValidation]
      : [];
    route.preValidation = [hookFor(rules), ...existing];
  });
}
