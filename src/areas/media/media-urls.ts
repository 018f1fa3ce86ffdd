import { type ImageFormat, imageFileExtensions } from '../../adapters/images/index.ts';
import { toHex } from '../../platform/http/ids.ts';

/** Paths of the served variants of a media (see GET /media/{hex}.{ext}). */
export function mediaVariantUrls(row: { id: string; originalFormat: string }) {
  const hex = toHex(row.id);
  const originalExt = imageFileExtensions[row.originalFormat as ImageFormat] ?? 'jpg';
  return {
    thumb: `/media/${hex}.webp?size=thumb`,
    small: `/media/${hex}.webp?size=small`,
    large: `/media/${hex}.webp?size=large`,
    original: `/media/${hex}.${originalExt}`,
  };
}
