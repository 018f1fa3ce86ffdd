import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../platform/clock.ts';
import { interpretOneSignalResponse, type OneSignalOutcome } from './onesignal-response.ts';
import { type PushMessage, type PushProvider, type PushResult, pushMessageProblem } from './push-message.ts';
import type { PushRetryOptions } from './push-retry-options.ts';

export interface OneSignalOptions extends PushRetryOptions {
  appId: string;
  /** App API key, sent as `Authorization: Key <apiKey>`. */
  apiKey: string;
  /** Default https://api.onesignal.com; tests point it at a local fake. */
  apiUrl?: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * Sends one push per call to OneSignal's REST API, targeting the `external_id` alias.
 *
 * A 429's Retry-After is the provider's limit for the whole app, not for one push: until it has
 * passed, no send of this instance makes a request (a send started meanwhile waits for it, or fails
 * as retryable at once when the wait is longer than `maxRetryDelayMs`), so a flush that goes on to
 * the next recipient after a 429 does not knock again before it was told to.
 */
export class OneSignalPushProvider implements PushProvider {
  readonly #appId: string;
  readonly #apiKey: string;
  readonly #endpoint: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #clock: Clock;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #maxRetries: number;
  readonly #retryBaseDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;
  /** No request before this time (clock milliseconds): the last Retry-After received. */
  #pausedUntil = 0;

  constructor(options: OneSignalOptions) {
    this.#appId = options.appId;
    this.#apiKey = options.apiKey;
    this.#endpoint = `${(options.apiUrl ?? 'https://api.onesignal.com').replace(/\/+$/, '')}/notifications?c=push`;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#clock = options.clock ?? systemClock;
    this.#sleep = options.sleep ?? ((ms) => delay(ms));
    this.#maxRetries = options.maxRetries ?? 2;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#logger = options.logger;
  }

  async send(message: PushMessage): Promise<PushResult> {
    const problem = pushMessageProblem(message);
    if (problem) return { delivered: false, reason: `invalid message: ${problem}`, retryable: false };
    // One body for every attempt, so each retry carries the same idempotency key.
    const body = JSON.stringify({
      app_id: this.#appId,
      target_channel: 'push',
      include_aliases: { external_id: [message.externalId] },
      headings: message.headings,
      contents: message.contents,
      data: message.data,
      idempotency_key: message.idempotencyKey,
      collapse_id: message.collapseId,
    });
    const paused = this.#pausedUntil - this.#clock.now().getTime();
    if (paused > this.#maxRetryDelayMs) {
      return {
        delivered: false,
        reason: `onesignal asked to wait until ${new Date(this.#pausedUntil).toISOString()}`,
        retryable: true,
      };
    }
    if (paused > 0) await this.#sleep(paused);
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#post(body);
      if (outcome.kind === 'delivered') return { delivered: true, providerId: outcome.providerId };
      if (outcome.kind === 'failed') {
        const { reason, retryable, rejected } = outcome;
        return { delivered: false, reason, retryable, ...(rejected ? { rejected } : {}) };
      }
      if (outcome.retryAfterMs !== null) {
        this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now().getTime() + outcome.retryAfterMs);
      }
      if (attempt >= this.#maxRetries) {
        return {
          delivered: false,
          reason: `${outcome.reason} (gave up after ${attempt + 1} attempts)`,
          retryable: true,
        };
      }
      const waitMs = outcome.retryAfterMs ?? this.#retryBaseDelayMs * 2 ** attempt;
      if (waitMs > this.#maxRetryDelayMs) {
        return { delivered: false, reason: `${outcome.reason} (asked to wait ${waitMs} ms)`, retryable: true };
      }
      this.#logger?.warn(
        {
          event: 'push.retrying',
          externalId: message.externalId,
          reason: outcome.reason,
          waitMs,
          attempt: attempt + 1,
        },
        'push failed, retrying',
      );
      await this.#sleep(waitMs);
    }
  }

  async #post(body: string): Promise<OneSignalOutcome> {
    try {
      const response = await this.#fetch(this.#endpoint, {
        method: 'POST',
        headers: {
          Authorization: `Key ${this.#apiKey}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const text = await response.text();
      return interpretOneSignalResponse(response.status, text, response.headers.get('retry-after'), this.#clock.now());
    } catch (error) {
      return { kind: 'retry', reason: `onesignal unreachable: ${this.#describe(error)}`, retryAfterMs: null };
    }
  }

  #describe(error: unknown): string {
    if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${this.#timeoutMs} ms`;
    if (!(error instanceof Error)) return String(error);
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
}
