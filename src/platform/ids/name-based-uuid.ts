/**
 * Name-based UUIDs (RFC 9562 section 5.3 and 5.5): the same name under the same namespace always gives
 * the same id. Version 3 hashes with MD5, version 5 with SHA-1.
 */
import { createHash } from 'node:crypto';

const hashOf = { 3: 'md5', 5: 'sha1' } as const;

export function nameBasedUuid(version: 3 | 5, name: string, namespace: string): string {
  const namespaceHex = namespace.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(namespaceHex)) throw new TypeError(`namespace is not a UUID: ${namespace}`);
  const bytes = createHash(hashOf[version]).update(Buffer.from(namespaceHex, 'hex')).update(name, 'utf8').digest();
  bytes[6] = (bytes.readUInt8(6) & 0x0f) | (version << 4);
  bytes[8] = (bytes.readUInt8(8) & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
