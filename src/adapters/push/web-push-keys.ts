/** The shapes of Web Push keys (RFC 8291, RFC 8292): checked in the configuration and at each subscription. */
import { ECDH } from 'node:crypto';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The bytes of an unpadded base64url text, or null for any other text. */
export function base64urlBytes(value: string): Buffer | null {
  return BASE64URL.test(value) ? Buffer.from(value, 'base64url') : null;
}

/** An uncompressed P-256 point (65 bytes, 0x04 first) on the curve: a VAPID public key, a subscription's p256dh. */
export function isUncompressedP256Point(value: string): boolean {
  const bytes = base64urlBytes(value);
  if (bytes === null || bytes.length !== 65 || bytes.readUInt8(0) !== 4) return false;
  try {
    ECDH.convertKey(bytes, 'prime256v1', undefined, undefined, 'uncompressed');
    return true;
  } catch {
    return false;
  }
}

/** A subscription's authentication secret: 16 bytes, base64url. */
export const isAuthSecret = (value: string): boolean => base64urlBytes(value)?.length === 16;

/** A VAPID private key: a 32-byte P-256 scalar, base64url. */
export const isVapidPrivateKey = (value: string): boolean => base64urlBytes(value)?.length === 32;
