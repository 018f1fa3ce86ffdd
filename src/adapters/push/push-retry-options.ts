import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.ts';

/** How a push provider waits and retries: the same rules for OneSignal and Web Push. */
export interface PushRetryOptions {
  /** Turns an HTTP-date Retry-After into a delay. */
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** Retries after a 429, a 5xx, a timeout or a network error; default 2. */
  maxRetries?: number;
  /** First 5xx/network backoff, doubled on each retry; default 1000 ms. */
  retryBaseDelayMs?: number;
  /** A longer Retry-After is not waited for (the flush would stall); the push fails as retryable. Default 60 s. */
  maxRetryDelayMs?: number;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  logger?: Logger;
}
