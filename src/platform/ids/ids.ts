/**
 * Ids: every resource id is a lowercase canonical UUID. Users and media also have `hex`, the same
 * 128 bits as 32 hex digits; any path parameter naming a user or a media accepts either form.
 */
import { randomUUID } from 'node:crypto';

const canonical = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const compact = /^[0-9a-f]{32}$/i;
const dash = 45; // '-'

export const newId = (): string => randomUUID();

/** The canonical lowercase UUID for a UUID or 32-hex input, or null when it is neither. */
export function parseUuidOrHex(value: string): string | null {
  if (canonical.test(value)) return value.toLowerCase();
  if (compact.test(value)) {
    const hex = value.toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return null;
}

export function isCanonicalUuid(value: string): boolean {
  return canonical.test(value);
}

/** Exactly the canonical form: lowercase 8-4-4-4-12 (what ids that accept no other spelling take). */
export const isLowercaseUuid = (value: string): boolean => canonical.test(value) && value === value.toLowerCase();

/**
 * The 32 hex digits of a UUID, lowercase. Lists write one or more a row (a media's `hex` and its URLs,
 * a user's), so a canonical UUID is read as character codes and written as one flat string: removing
 * the dashes by `replaceAll` made a chain of pieces and a copy, about 300 bytes of garbage a time
 * against 48 (docs/benchmarks.md, Session 49). `| 32` lowercases a hex letter and keeps a digit.
 */
export function toHex(uuid: string): string {
  const dashed =
    uuid.length === 36 &&
    uuid.charCodeAt(8) === dash &&
    uuid.charCodeAt(13) === dash &&
    uuid.charCodeAt(18) === dash &&
    uuid.charCodeAt(23) === dash;
  if (!dashed) return uuid.replaceAll('-', '').toLowerCase();
  const at = (index: number) => uuid.charCodeAt(index) | 32;
  // biome-ignore format: the digits in the UUID's five groups
  return String.fromCharCode(
    at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7),
    at(9), at(10), at(11), at(12),
    at(14), at(15), at(16), at(17),
    at(19), at(20), at(21), at(22),
    at(24), at(25), at(26), at(27), at(28), at(29), at(30), at(31), at(32), at(33), at(34), at(35),
  );
}
