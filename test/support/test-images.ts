/**
 * Real images generated with sharp, for tests here and in other areas (uploads, EXIF positions).
 * Each is a smooth gradient, so it compresses like a photo rather than like a flat colour.
 */
import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { exifDateText, exifDegrees } from '../../src/adapters/images/exif-values.ts';

export interface TestImageSize {
  width: number;
  height: number;
}

export interface TestJpegOptions extends TestImageSize {
  /** Written as EXIF GPS tags (degrees, minutes, seconds with a hemisphere reference). */
  gps?: { latitude: number; longitude: number };
  /** DateTimeOriginal: a Date is written as its UTC wall-clock time; a string is written verbatim. */
  takenAt?: Date | string;
  /** OffsetTimeOriginal, such as `+02:00`. */
  takenAtOffset?: string;
  camera?: { make: string; model: string };
  /** EXIF orientation, 1 to 8 (6: the stored pixels must be turned 90° clockwise to be upright). */
  orientation?: number;
}

export async function makeJpeg(options: TestJpegOptions): Promise<Buffer> {
  const ifd0: Record<string, string> = {};
  const exifIfd: Record<string, string> = {};
  const gpsIfd: Record<string, string> = {};
  if (options.camera) {
    ifd0.Make = options.camera.make;
    ifd0.Model = options.camera.model;
  }
  if (options.takenAt !== undefined)
    exifIfd.DateTimeOriginal = typeof options.takenAt === 'string' ? options.takenAt : exifDateText(options.takenAt);
  if (options.takenAtOffset !== undefined) exifIfd.OffsetTimeOriginal = options.takenAtOffset;
  if (options.gps) {
    gpsIfd.GPSLatitudeRef = options.gps.latitude < 0 ? 'S' : 'N';
    gpsIfd.GPSLatitude = exifDegrees(options.gps.latitude);
    gpsIfd.GPSLongitudeRef = options.gps.longitude < 0 ? 'W' : 'E';
    gpsIfd.GPSLongitude = exifDegrees(options.gps.longitude);
  }
  let image = gradient(options).jpeg({ quality: 90 });
  const hasTags = [ifd0, exifIfd, gpsIfd].some((directory) => Object.keys(directory).length > 0);
  // libvips numbers the EXIF directories: IFD0 main, IFD2 Exif (dates), IFD3 GPS.
  if (hasTags) image = image.withExif({ IFD0: ifd0, IFD2: exifIfd, IFD3: gpsIfd });
  if (options.orientation !== undefined) image = image.withMetadata({ orientation: options.orientation });
  return image.toBuffer();
}

export async function makePng(options: TestImageSize & { alpha?: boolean }): Promise<Buffer> {
  return gradient(options, options.alpha ? 4 : 3)
    .png()
    .toBuffer();
}

/** A single-colour PNG: huge dimensions in a few kilobytes, the shape of a decompression bomb. */
export async function makeFlatPng(options: TestImageSize): Promise<Buffer> {
  const { width, height } = options;
  return sharp({ create: { width, height, channels: 3, background: '#808080' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** A tiny PNG whose header claims the given dimensions; decoding it would fail, probing must not try. */
export async function makePngClaimingSize(options: TestImageSize): Promise<Buffer> {
  const png = Buffer.from(await makeFlatPng({ width: 1, height: 1 }));
  // IHDR is the first chunk: length (8), type (12), width (16), height (20), ..., CRC of type+data (29).
  png.writeUInt32BE(options.width, 16);
  png.writeUInt32BE(options.height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

function gradient(size: TestImageSize, channels: 3 | 4 = 3): Sharp {
  const { width, height } = size;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = (y * width + x) * channels;
      pixels[offset] = Math.floor((x / width) * 255);
      pixels[offset + 1] = Math.floor((y / height) * 255);
      pixels[offset + 2] = 128;
      if (channels === 4) pixels[offset + 3] = x < width / 2 ? 255 : 0;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } });
}
