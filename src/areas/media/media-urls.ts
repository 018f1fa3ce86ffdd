import { type ImageFormat, imageFileExtensions } from '../../adapters/images/index.ts';
import { toHex } from '../../platform/ids/ids.ts';

const servedExtensions = new Set(['jpg', 'png', 'webp', 'avif']);

const webpPath = (hex: string, size: 'thumb' | 'small' | 'large') => `/media/${hex}.webp?size=${size}`;

/** Paths of the served variants of a media (see GET /media/{hex}.{ext}); `hex` when the caller has it already. */
export function mediaVariantUrls(row: { id: string; originalFormat: string }, hex = toHex(row.id)) {
  // The route serves these formats; a GIF or HEIC original is offered as JPEG.
  const extension = imageFileExtensions[row.originalFormat as ImageFormat];
  const originalExt = extension !== undefined && servedExtensions.has(extension) ? extension : 'jpg';
  return {
    thumb: webpPath(hex, 'thumb'),
    small: webpPath(hex, 'small'),
    large: webpPath(hex, 'large'),
    original: `/media/${hex}.${originalExt}`,
  };
}

/** The path of a media's thumbnail alone (a map's cluster shows nothing else of its representative). */
export const thumbnailPath = (mediaId: string) => webpPath(toHex(mediaId), 'thumb');
