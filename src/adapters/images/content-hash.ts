import { createHash } from 'node:crypto';

/** Lower-case hexadecimal SHA-256 of the bytes: names originals by content, so duplicates share a key. */
export function sha256Hex(data: Buffer | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
