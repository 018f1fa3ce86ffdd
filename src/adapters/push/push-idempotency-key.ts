import { createHash } from 'node:crypto';

/**
 * Namespace of our push idempotency keys: a random v4 UUID chosen once for this project.
 * Changing it changes every key, so a flush re-run across the change could send twice.
 */
export const PUSH_IDEMPOTENCY_NAMESPACE = '62e471ca-b115-4096-96df-4e7a1a5617dc';

/** Name-based UUID version 5 (SHA-1), RFC 9562 section 5.5. */
export function uuidV5(name: string, namespace: string): string {
  const namespaceHex = namespace.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(namespaceHex)) throw new TypeError(`namespace is not a UUID: ${namespace}`);
  const hash = createHash('sha1').update(Buffer.from(namespaceHex, 'hex')).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The idempotency key of one flush push: the same recipient and the same notification rows
 * always give the same key, whatever their order, so re-running a flush cannot double-send.
 */
export function pushIdempotencyKey(recipientHex: string, notificationIds: string[]): string {
  const ids = notificationIds.map((id) => id.toLowerCase()).sort();
  return uuidV5(`${recipientHex.toLowerCase()}:${ids.join(',')}`, PUSH_IDEMPOTENCY_NAMESPACE);
}
