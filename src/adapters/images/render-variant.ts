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

/** The longest side WebP can encode. */
export const maxWebpSide = 16383;

/**
 * Most pixels a variant has, per format: encoding time grows with the pixels, and AVIF costs ten times
 * what WebP does (a 12 MP photo took over 100 s in AVIF at full size). An image larger than its
 * format's bound is scaled down to fit it, whatever the size asked for: AVIF up to 2048 x 2048
 * (4.2 MP), the others up to 4096 x 4096 (16.8 MP). Sizes thumb, small and large are within both.
 */
export const maxVariantPixels: Readonly<Record<VariantFormat, number>> = {
  avif: 2048 * 2048,
  jpeg: 4096 * 4096,
  webp: 4096 * 4096,
  png: 4096 * 4096,
};

/** The dimensions of a variant of an upright image of `source` dimensions: the size's box, then the format's pixel bound. */
export function variantDimensions(
  source: { width: number; height: number },
  format: VariantFormat,
  size: VariantSize,
): { width: number; height: number } {
  // WebP cannot encode a side over 16383 px (and AVIF fails there too): such an 'original' is fitted.
  const encoderLimit = format === 'webp' || format === 'avif' ? maxWebpSide : null;
  const box = variantLongestSide[size] ?? encoderLimit;
  const longest = Math.max(source.width, source.height);
  let scale = box !== null && longest > box ? box / longest : 1;
  const pixels = source.width * source.height * scale * scale;
  if (pixels > maxVariantPixels[format]) scale *= Math.sqrt(maxVariantPixels[format] / pixels);
  if (scale >= 1) return { width: source.width, height: source.height };
  return {
    width: Math.max(1, Math.min(source.width, Math.round(source.width * scale))),
    height: Math.max(1, Math.min(source.height, Math.round(source.height * scale))),
  };
}

/**
 * Renders a servable copy of an image: turned upright from its EXIF orientation, fitted inside the
 * size's square box and the format's pixel bound (variantDimensions), re-encoded, and with all
 * metadata (EXIF with GPS, XMP, IPTC, ICC) left out, which is sharp's default when neither
 * keepMetadata nor withMetadata is called. Never enlarged.
 * Expects bytes probeImage accepted; an animated image gives its first frame.
 */
export async function renderVariant(data: Buffer, request: VariantRequest): Promise<RenderedVariant> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: request.maxPixels ?? defaultMaxPixels, failOn: 'warning' } as const;
  // The header only: the upright dimensions decide the output's before any pixel is decoded.
  const metadata = await sharp(data, options).metadata();
  const upright = metadata.autoOrient ?? { width: metadata.width ?? 0, height: metadata.height ?? 0 };
  let pipeline = sharp(data, options).autoOrient();
  if (upright.width > 0 && upright.height > 0) {
    const target = variantDimensions(upright, request.format, request.size);
    if (target.width !== upright.width || target.height !== upright.height) {
      // By the longest side only: sharp derives the other from the aspect ratio, as it always did.
      pipeline = pipeline.resize(upright.width >= upright.height ? { width: target.width } : { height: target.height });
    }
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
      // Effort 2 of 9 (sharp's default is 4): about a ninth of the time for a slightly larger file.
      pipeline = pipeline.avif({ quality: 55, effort: 2 });
      break;
    case 'png':
      pipeline = pipeline.png({ compressionLevel: 9 });
      break;
  }
  const { data: output, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data: output, contentType: variantContentTypes[request.format], width: info.width, height: info.height };
}
