import { request } from 'node:https';
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { type Clock, systemClock } from '../../platform/clock.ts';
import {
  type AddressLookup,
  EndpointRefused,
  type ResolvedAddress,
  resolvePublicEndpoint,
} from '../../platform/net/public-address.ts';
import { retryAfterMs } from './onesignal-response.ts';
import type { PushRetryOptions } from './push-retry-options.ts';

/** web-push (CommonJS), required at the first push or key pair rather than at start-up (most starts send none). */
const webPush = (): typeof import('web-push') => createRequire(import.meta.url)('web-push');

export interface VapidKeys {
  /** The application server key browsers subscribe with: an uncompressed P-256 point, base64url. */
  publicKey: string;
  privateKey: string;
  /** `mailto:` or `https:` contact the push services may use (RFC 8292). */
  subject: string;
}

export interface WebPushSubscriptionTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface WebPushOptions {
  /** Seconds the push service keeps an undelivered push. */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** A newer push with the same topic replaces an undelivered one (base64url, at most 32 characters). */
  topic?: string;
}

export type WebPushResult =
  | { delivered: true }
  | {
      delivered: false;
      reason: string;
      retryable: boolean;
      /** The push service says the subscription no longer exists (404, 410): delete it. */
      gone: boolean;
    };

/** The retries follow OneSignal's rules (PushRetryOptions), per push service origin. */
export interface WebPushSenderOptions extends PushRetryOptions {
  vapid: VapidKeys;
  /** Hosts reached even on a non-public address (WEB_PUSH_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** Extra trusted certificates (the tests' local push service). */
  ca?: string | Buffer;
  lookup?: AddressLookup;
}

type Attempt = { kind: 'done'; result: WebPushResult } | { kind: 'retry'; reason: string; retryAfterMs: number | null };

/**
 * Sends one Web Push (RFC 8030) to one browser subscription: the payload encrypted with `aes128gcm`
 * (RFC 8291) and a VAPID authorization (RFC 8292), made by the `web-push` package; the request itself is
 * ours, so that it connects only to the address checked public at this send (no second DNS answer).
 * A 429's Retry-After pauses every send of this instance to that push service, as OneSignal's does.
 */
export class WebPushSender {
  readonly #options: WebPushSenderOptions;
  readonly #clock: Clock;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Push service origin -> no request before this time (clock milliseconds). */
  readonly #pausedUntil = new Map<string, number>();

  constructor(options: WebPushSenderOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#sleep = options.sleep ?? ((ms) => delay(ms));
  }

  get publicKey(): string {
    return this.#options.vapid.publicKey;
  }

  async send(target: WebPushSubscriptionTarget, payload: string, options: WebPushOptions): Promise<WebPushResult> {
    let address: ResolvedAddress;
    try {
      address = await resolvePublicEndpoint(target.endpoint, this.#options.allowedHosts, this.#options.lookup);
    } catch (error) {
      if (!(error instanceof EndpointRefused)) throw error;
      return { delivered: false, reason: `endpoint refused: ${error.message}`, retryable: false, gone: false };
    }
    // Encrypted once: every retry carries the same bytes (and the push service sees one message).
    const details = webPush().generateRequestDetails(target, payload, {
      vapidDetails: this.#options.vapid,
      TTL: options.ttlSeconds,
      urgency: options.urgency,
      contentEncoding: 'aes128gcm',
      ...(options.topic ? { topic: options.topic } : {}),
    });
    const origin = new URL(target.endpoint).origin;
    const maxRetries = this.#options.maxRetries ?? 2;
    const maxRetryDelayMs = this.#options.maxRetryDelayMs ?? 60_000;
    const paused = (this.#pausedUntil.get(origin) ?? 0) - this.#clock.now().getTime();
    if (paused > maxRetryDelayMs) {
      const until = new Date(this.#pausedUntil.get(origin) ?? 0).toISOString();
      return { delivered: false, reason: `${origin} asked to wait until ${until}`, retryable: true, gone: false };
    }
    if (paused > 0) await this.#sleep(paused);
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#post(target.endpoint, details, address);
      if (outcome.kind === 'done') return outcome.result;
      if (outcome.retryAfterMs !== null) {
        const until = this.#clock.now().getTime() + outcome.retryAfterMs;
        this.#pausedUntil.set(origin, Math.max(this.#pausedUntil.get(origin) ?? 0, until));
      }
      const waitMs = outcome.retryAfterMs ?? (this.#options.retryBaseDelayMs ?? 1000) * 2 ** attempt;
      if (attempt >= maxRetries || waitMs > maxRetryDelayMs) {
        const why = attempt >= maxRetries ? `gave up after ${attempt + 1} attempts` : `asked to wait ${waitMs} ms`;
        return { delivered: false, reason: `${outcome.reason} (${why})`, retryable: true, gone: false };
      }
      this.#options.logger?.warn(
        { event: 'webpush.retrying', origin, reason: outcome.reason, waitMs, attempt: attempt + 1 },
        'web push failed, retrying',
      );
      await this.#sleep(waitMs);
    }
  }

  #post(
    endpoint: string,
    details: { headers: Record<string, string | number>; body: Buffer | null },
    address: ResolvedAddress,
  ): Promise<Attempt> {
    const timeoutMs = this.#options.timeoutMs ?? 10_000;
    // Connect to the address checked above, whatever a second DNS answer would say.
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: address.address, family: address.family }]);
      else callback(null, address.address, address.family);
    };
    return new Promise((resolve) => {
      const outgoing = request(endpoint, {
        method: 'POST',
        headers: details.headers,
        lookup: pinned,
        agent: false,
        ...(this.#options.ca ? { ca: this.#options.ca } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          if (length < 1000) chunks.push(chunk);
          length += chunk.length;
        });
        response.on('error', (error) => resolve(unreachable(error, timeoutMs)));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 200);
          const header = response.headers['retry-after'];
          resolve(interpret(response.statusCode ?? 0, text, typeof header === 'string' ? header : null, this.#clock));
        });
      });
      outgoing.on('error', (error) => resolve(unreachable(error, timeoutMs)));
      outgoing.end(details.body ?? undefined);
    });
  }
}

function unreachable(error: Error, timeoutMs: number): Attempt {
  const why =
    error.name === 'AbortError' || error.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : error.message;
  return { kind: 'retry', reason: `push service unreachable: ${why}`, retryAfterMs: null };
}

/** A push service's answer (RFC 8030 section 5): 201 created; 404 and 410 the subscription is gone. */
function interpret(status: number, text: string, retryAfter: string | null, clock: Clock): Attempt {
  const reason = `push service ${status}${text ? `: ${text}` : ''}`;
  if (status >= 200 && status <= 299) return { kind: 'done', result: { delivered: true } };
  if (status === 429) return { kind: 'retry', reason, retryAfterMs: retryAfterMs(retryAfter, clock.now()) };
  if (status >= 500 || status === 408) return { kind: 'retry', reason, retryAfterMs: null };
  const gone = status === 404 || status === 410;
  return { kind: 'done', result: { delivered: false, reason, retryable: false, gone } };
}

/** A new VAPID key pair (base64url), for `npm run cli -- push:vapid-keys`. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webPush().generateVAPIDKeys();
}
