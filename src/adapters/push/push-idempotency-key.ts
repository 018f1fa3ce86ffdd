import { createHash } from 'node:crypto';

/**
 * Namespace of our push idempotency keys: a random v4 UUID chosen once for this project.
 * Changing it changes every key, so a flush re-run across the change could send twice.
 */
export const PUSH_IDEMPOTENCY_NAMESPACE = '62e471ca-b115-4096-96df-4e7a1a5617dc';

/**
 * Name-based UUID version 3 (MD5), RFC 9562 section 5.3. OneSignal asks for idempotency keys of
 * version 3 or 4 (version 5, which we sent before, is not in its list), and a name-based key is what
 * makes a re-run send the same key.
 */
export function uuidV3(name: string, namespace: string): string {
  const namespaceHex = namespace.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(namespaceHex)) throw new TypeError(`namespace is not a UUID: ${namespace}`);
  const bytes = createHash('md5').update(Buffer.from(namespaceHex, 'hex')).update(name, 'utf8').digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x30;
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
  return uuidV3(`${recipientHex.toLowerCase()}:${ids.join(',')}`, PUSH_IDEMPOTENCY_NAMESPACE);
}
