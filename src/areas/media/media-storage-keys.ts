/**
 * Where a media's files live in storage: the original under `originals/`, each rendered variant
 * under `variants/`, both fanned out by the first two hex digits. The orphan sweep reads the media
 * id back from a key with mediaHexOfKey.
 */
import type { VariantFormat, VariantSize } from '../../adapters/images/index.ts';

export const storagePrefixes = ['originals/', 'variants/'] as const;

export const originalKey = (hex: string, extension: string) => `originals/${hex.slice(0, 2)}/${hex}.${extension}`;

export const variantPrefix = (hex: string) => `variants/${hex.slice(0, 2)}/${hex}/`;

export const variantKey = (hex: string, size: VariantSize, format: VariantFormat) =>
  `${variantPrefix(hex)}${size}.${format}`;

const keyPattern =
  /^(?:originals\/[0-9a-f]{2}\/([0-9a-f]{32})\.[a-z0-9]+|variants\/[0-9a-f]{2}\/([0-9a-f]{32})\/[a-z]+\.[a-z0-9]+)$/;

/** The media hex a key belongs to, or null for a key this area did not write. */
export function mediaHexOfKey(key: string): string | null {
  const match = keyPattern.exec(key);
  return match ? (match[1] ?? match[2] ?? null) : null;
}
