import type { Metadata } from 'sharp';
import { CorruptImageError, ImageTooLargeError, UnsupportedImageError } from './image-errors.ts';
import { defaultMaxPixels, type ImageFormat } from './image-format.ts';
import { loadSharp } from './load-sharp.ts';

export interface ImageProbe {
  format: ImageFormat;
  /** Upright dimensions, as the image is displayed once its EXIF orientation is applied. */
  width: number;
  height: number;
  /** The EXIF orientation tag, 1 (upright) to 8; 1 when absent. */
  orientation: number;
}

export interface ProbeOptions {
  /** Most pixels (width x height) accepted; defaults to defaultMaxPixels. */
  maxPixels?: number;
}

/**
 * Identifies an uploaded image from its bytes and checks that it can be decoded within the pixel
 * limit. Throws UnsupportedImageError (CorruptImageError for damaged data) or ImageTooLargeError.
 */
/** JPEG, PNG, GIF, WebP (RIFF…WEBP) and ISO-BMFF (AVIF/HEIF: …ftyp) magic numbers. */
function hasKnownSignature(data: Buffer): boolean {
  const starts = (bytes: number[], at = 0) => bytes.every((byte, index) => data[at + index] === byte);
  return (
    starts([0xff, 0xd8, 0xff]) ||
    starts([0x89, 0x50, 0x4e, 0x47]) ||
    starts([0x47, 0x49, 0x46, 0x38]) ||
    (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) ||
    starts([0x66, 0x74, 0x79, 0x70], 4)
  );
}

export async function probeImage(data: Buffer, options: ProbeOptions = {}): Promise<ImageProbe> {
  const maxPixels = options.maxPixels ?? defaultMaxPixels;
  if (data.length === 0) throw new UnsupportedImageError('the file is empty');
  const sharp = await loadSharp();

  let metadata: Metadata;
  try {
    // Reads the header only; the pixel limit is checked below so it raises our own error.
    metadata = await sharp(data, { limitInputPixels: false }).metadata();
  } catch (error) {
    // Bytes that start like an image we take, but cannot be read: damaged, not foreign.
    if (hasKnownSignature(data)) throw new CorruptImageError('the image data cannot be read', { cause: error });
    throw new UnsupportedImageError('the file is not an image in a known format', { cause: error });
  }
  const format = acceptedFormat(metadata);
  if (!format) throw new UnsupportedImageError(`${metadata.format ?? 'this'} images are not accepted`);
  const { width, height } = metadata;
  if (!width || !height) throw new CorruptImageError('the image header has no dimensions');
  if (width * height > maxPixels) throw new ImageTooLargeError(width, height, maxPixels);

  try {
    // Decodes all the data (at a reduced scale where the codec allows), so a truncated or damaged file
    // is refused now rather than when variants are rendered. failOn 'warning' makes truncation fatal.
    await sharp(data, { limitInputPixels: maxPixels, failOn: 'warning' })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch (error) {
    if (format === 'heif') {
      throw new UnsupportedImageError('this server cannot decode HEIF (HEVC) images', { cause: error });
    }
    throw new CorruptImageError(`the ${format} data cannot be decoded`, { cause: error });
  }

  const upright = metadata.autoOrient ?? { width, height };
  return { format, width: upright.width, height: upright.height, orientation: metadata.orientation ?? 1 };
}

/** sharp reports AVIF and HEIC both as `heif`; the compression tells them apart. SVG, TIFF and others are refused. */
function acceptedFormat(metadata: Metadata): ImageFormat | null {
  switch (metadata.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
      return metadata.format;
    case 'heif':
      return metadata.compression === 'av1' ? 'avif' : 'heif';
    default:
      return null;
  }
}
