/** Retry delays that double from `firstMs` at each failed attempt, up to `maxMs` (mail, after-commit retries). */
export const doublingDelayMs = (attempts: number, firstMs: number, maxMs: number): number =>
  Math.min(firstMs * 2 ** (attempts - 1), maxMs);
