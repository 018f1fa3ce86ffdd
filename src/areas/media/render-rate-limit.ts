/**
 * The per-IP limit on renders asked through GET /media/{hex}.{ext}: counted only when the variant
 * asked for is not stored yet (a stored file costs a read and is never counted), so it cannot be a
 * route rule of rate-limit.ts, which counts every request before its handler runs. Same store
 * (memory or Redis), same refusal: 429 rateLimited with Retry-After and the X-RateLimit headers.
 */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { RateLimitStore } from '../../platform/http/rate-limit.ts';

export const renderRateLimitWindowSeconds = 60;

export class RenderRateLimit {
  private readonly store: RateLimitStore;
  private readonly clock: Clock;
  private readonly enabled: boolean;
  private readonly max: number;

  constructor(options: { store: RateLimitStore; clock: Clock; enabled: boolean; maxPerMinute: number }) {
    this.store = options.store;
    this.clock = options.clock;
    this.enabled = options.enabled;
    this.max = options.maxPerMinute;
  }

  /** Counts one render asked for by `ip`; throws 429 rateLimited past the limit. */
  async count(ip: string): Promise<void> {
    if (!this.enabled) return;
    const windowMs = renderRateLimitWindowSeconds * 1000;
    const { count, resetAt } = await this.store.hit(`media-render:ip:${ip}`, windowMs);
    if (count <= this.max) return;
    const seconds = Math.max(1, Math.ceil((resetAt - this.clock.now().getTime()) / 1000));
    throw new AppError('rateLimited', {
      values: { seconds },
      meta: { limit: this.max, windowSeconds: renderRateLimitWindowSeconds, rule: 'media-render:ip' },
      headers: {
        'Retry-After': String(seconds),
        'X-RateLimit-Limit': String(this.max),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(seconds),
      },
    });
  }
}
