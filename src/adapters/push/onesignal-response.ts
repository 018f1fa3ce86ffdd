/** What one HTTP exchange with OneSignal's create-notification endpoint amounts to. */
export type OneSignalOutcome =
  | { kind: 'delivered'; providerId: string }
  | { kind: 'failed'; reason: string; retryable: boolean; rejected?: boolean }
  | { kind: 'retry'; reason: string; retryAfterMs: number | null };

/**
 * Reads a create-notification answer. OneSignal reports some failures with HTTP 200:
 * an empty `id` or an `errors` array means nothing was created, and
 * `errors.invalid_aliases` means our external_id has no subscription.
 */
export function interpretOneSignalResponse(
  status: number,
  bodyText: string,
  retryAfter: string | null,
  now: Date,
): OneSignalOutcome {
  if (status === 429) {
    return {
      kind: 'retry',
      reason: `onesignal 429: ${errorText(bodyText)}`,
      retryAfterMs: retryAfterMs(retryAfter, now),
    };
  }
  if (status >= 500 || status === 408) {
    return { kind: 'retry', reason: `onesignal ${status}: ${errorText(bodyText)}`, retryAfterMs: null };
  }
  // A rejected key is the operator's to fix, not the recipient's: keep the push for the next flush.
  if (status === 401 || status === 403) {
    return {
      kind: 'failed',
      reason: `onesignal ${status}: credentials refused: ${errorText(bodyText)}`,
      retryable: true,
    };
  }
  if (status === 400) {
    return { kind: 'failed', reason: `onesignal 400: ${errorText(bodyText)}`, retryable: false, rejected: true };
  }
  if (status < 200 || status > 299) {
    return { kind: 'failed', reason: `onesignal ${status}: ${errorText(bodyText)}`, retryable: false };
  }
  const body = parseObject(bodyText);
  // The request may have created the notification; a later retry with the same idempotency key is safe.
  if (!body) return { kind: 'failed', reason: `onesignal ${status}: response is not a JSON object`, retryable: true };
  const errors = body.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    return { kind: 'failed', reason: `onesignal: nothing sent: ${errors.map(String).join('; ')}`, retryable: false };
  }
  if (isObject(errors) && 'invalid_aliases' in errors) {
    return {
      kind: 'failed',
      reason: `onesignal: invalid_aliases ${JSON.stringify(errors.invalid_aliases)}`,
      retryable: false,
    };
  }
  if (typeof body.id !== 'string' || body.id === '') {
    return { kind: 'failed', reason: 'onesignal: nothing sent (empty id)', retryable: false };
  }
  return { kind: 'delivered', providerId: body.id };
}

/** Retry-After is either delay-seconds or an HTTP-date (RFC 9110 section 10.2.3). */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

function errorText(bodyText: string): string {
  const body = parseObject(bodyText);
  if (body && Array.isArray(body.errors)) return body.errors.map(String).join('; ');
  if (body && body.errors !== undefined) return JSON.stringify(body.errors);
  return bodyText.slice(0, 200) || '(empty body)';
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
