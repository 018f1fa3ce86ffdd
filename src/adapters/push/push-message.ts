/** One push to one recipient, in every supported language. */
export interface PushMessage {
  /** The recipient's 32-hex id; it is the provider's `external_id` alias. */
  externalId: string;
  /** Language code ('en', 'fr', ...) to title; 'en' is required. */
  headings: Record<string, string>;
  /** Language code to body text; 'en' is required. */
  contents: Record<string, string>;
  data?: Record<string, unknown>;
  /** RFC 9562 UUID; the provider drops a repeated key, so retries and re-runs cannot double-send. */
  idempotencyKey: string;
  /** Replaces an earlier push with the same id still shown on the device. */
  collapseId?: string;
}

export type PushResult =
  | { delivered: true; providerId: string }
  | {
      delivered: false;
      reason: string;
      retryable: boolean;
      /** The provider refused the request itself (HTTP 400): the caller keeps the push for one more try. */
      rejected?: boolean;
    };

/**
 * Sends pushes. `send` never throws for provider-side failures (HTTP, network, bad JSON):
 * it answers `delivered: false` and the caller logs `pushprovider.pushFailed` and moves on.
 */
export interface PushProvider {
  send(message: PushMessage): Promise<PushResult>;
}

const EXTERNAL_ID = /^[0-9a-f]{32}$/;
const RFC9562_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Returns what is wrong with the message, or null. Every provider checks this, so the log provider catches what OneSignal would reject. */
export function pushMessageProblem(message: PushMessage): string | null {
  if (!EXTERNAL_ID.test(message.externalId)) return 'externalId must be 32 lowercase hex characters';
  if (!message.headings.en) return "headings must include 'en'";
  if (!message.contents.en) return "contents must include 'en'";
  if (!RFC9562_UUID.test(message.idempotencyKey)) return 'idempotencyKey must be an RFC 9562 UUID';
  return null;
}
