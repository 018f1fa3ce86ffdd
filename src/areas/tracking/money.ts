/**
 * Commission arithmetic in integer minor units, never floats: amount × rate_bps / 10000, rounded half
 * up (amounts are positive, so half away from zero): 0.5 of a cent or more is one more cent.
 */
export function commissionOf(amount: bigint, rateBps: number): bigint {
  if (amount <= 0n) return 0n;
  return (amount * BigInt(rateBps) + 5000n) / 10000n;
}

/** A bigint sum from SQL (numeric as text) as a JSON number; amounts are capped so sums stay exact. */
export const toNumber = (value: bigint | string | number | null): number => Number(value ?? 0);
