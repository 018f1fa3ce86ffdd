import { defaultMaxPixels } from './image-format.ts';
import { loadSharp } from './load-sharp.ts';

export type VariantFormat = 'jpeg' | 'webp' | 'avif' | 'png';
export type VariantSize = 'thumb' | 'small' | 'large' | 'original';

/** Longest side, in pixels, of each variant; null keeps the original's dimensions. Never upscaled. */
export const variantLongestSide: Readonly<Record<VariantSize, number | null>> = {
  thumb: 320,
  small: 1080,
  large: 2048,
  original: null,
};

export const variantContentTypes: Readonly<Record<VariantFormat, string>> = {
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  png: 'image/png',
};

export interface VariantRequest {
  format: VariantFormat;
  size: VariantSize;
  /** Refuses inputs larger than this (default defaultMaxPixels), in case a caller skipped probeImage. */
  maxPixels?: number;
}

export interface RenderedVariant {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Renders a servable copy of an image: turned upright from its EXIF orientation, fitted inside the
 * size's square box, re-encoded, and with all metadata (EXIF with GPS, XMP, IPTC, ICC) left out,
 * which is sharp's default when neither keepMetadata nor withMetadata is called.
 * Expects bytes probeImage accepted; an animated image gives its first frame.
 */
/** The longest side WebP can encode. */
export const maxWebpSide = 16383;

export async function renderVariant(data: Buffer, request: VariantRequest): Promise<RenderedVariant> {
  // WebP cannot encode a side over 16383 px (and AVIF fails there too): such an 'original' is fitted.
  const encoderLimit = request.format === 'webp' || request.format === 'avif' ? maxWebpSide : null;
  const longestSide = variantLongestSide[request.size] ?? encoderLimit;
  const sharp = await loadSharp();
  let pipeline = sharp(data, {
    limitInputPixels: request.maxPixels ?? defaultMaxPixels,
    failOn: 'warning',
  }).autoOrient();
  if (longestSide !== null) {
    pipeline = pipeline.resize(longestSide, longestSide, { fit: 'inside', withoutEnlargement: true });
  }
  switch (request.format) {
    case 'jpeg':
      // JPEG has no transparency: lay transparent areas on white rather than sharp's black.
      pipeline = pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 82, progressive: true, mozjpeg: true });
      break;
    case 'webp':
      pipeline = pipeline.webp({ quality: 80 });
      break;
    case 'avif':
      pipeline = pipeline.avif({ quality: 55 });
      break;
    case 'png':
      pipeline = pipeline.png({ compressionLevel: 9 });
      break;
  }
  const { data: output, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data: output, contentType: variantContentTypes[request.format], width: info.width, height: info.height };
}
