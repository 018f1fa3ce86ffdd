/**
 * The schedule of a pending remote follow (docs/api.md, Federation, Following remote accounts): a
 * remote server may lose our Follow (down, restarted, a queue dropped) and never answer, so while no
 * Accept or Reject has come, the Follow is sent again, under the same id, after each delay here; the
 * delay after the last send is how long its answer is still awaited before the request expires (an
 * `Undo` is sent, and the local user sees it no longer requested).
 */
const hourMs = 60 * 60_000;

/** After the request and each retry: 1 hour, 6 hours, 1 day, 3 days; then 3 days more before expiring. */
export const followRetryDelaysMs = [hourMs, 6 * hourMs, 24 * hourMs, 72 * hourMs, 72 * hourMs] as const;

/** How many times a Follow is sent at most: the request and four retries. */
export const followSends = followRetryDelaysMs.length;

/** When a request whose Follow was sent `sends` times, the last at `sentAt`, is due again. */
export function nextFollowAttempt(sentAt: Date, sends: number): Date {
  const delay = followRetryDelaysMs[Math.min(sends, followSends) - 1] ?? hourMs;
  return new Date(sentAt.getTime() + delay);
}

/** How many due requests one run of the job takes at most (the rest wait for the next minute). */
export const followRetryBatch = 100;
