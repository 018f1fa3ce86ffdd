/**
 * Degrees rounded to 7 decimals (about 1 cm), for every position PostgreSQL computes with. Its float
 * arithmetic raises an underflow error where a product of non-zero values rounds to zero: 5e-324
 * through radians() (ll_to_earth, which media's and establishments' position indexes compute), or a
 * difference of 1e-170 degrees squared by the haversine formula (great-circle.ts). Rounded, a
 * position is 0 or at least 1e-7 from it, and so is a difference of two. NaN stays NaN.
 */
export const centimetreDegrees = (degrees: number): number => Math.round(degrees * 1e7) / 1e7 + 0; // + 0: no -0
