/**
 * Ids: every resource id is a lowercase canonical UUID. Users and media also have `hex`, the same
 * 128 bits as 32 hex digits; any path parameter naming a user or a media accepts either form.
 */
import { randomUUID } from 'node:crypto';

const canonical = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const compact = /^[0-9a-f]{32}$/i;

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

export const toHex = (uuid: string): string => uuid.replaceAll('-', '').toLowerCase();
