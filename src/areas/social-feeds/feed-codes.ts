/**
 * Feed codes: 12 characters of base62 from the system's CSPRNG, each drawn without modulo bias
 * (bytes of 248 and above are redrawn), so 12 × log2(62) ≈ 71.4 bits: unguessable, short enough to share.
 */
import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const feedCodeLength = 12;
export const feedCodePattern = /^[0-9A-Za-z]{12}$/;

export function newFeedCode(): string {
  let code = '';
  while (code.length < feedCodeLength) {
    for (const byte of randomBytes(feedCodeLength * 2)) {
      if (byte < 248 && code.length < feedCodeLength) code += alphabet[byte % 62];
    }
  }
  return code;
}
