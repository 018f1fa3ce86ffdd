import exifr from 'exifr';
import { centimetreDegrees } from '../../platform/db/centimetre-degrees.ts';

export interface PhotoExif {
  latitude: number | null;
  longitude: number | null;
  takenAt: Date | null;
  cameraMake?: string;
  cameraModel?: string;
}

const none: PhotoExif = { latitude: null, longitude: null, takenAt: null };

/**
 * Position, capture time and camera from an image's EXIF. Best effort: an image without EXIF, in a
 * format exifr cannot read, or with damaged tags gives nulls rather than an error, so it never blocks
 * an upload (probeImage decides what is an acceptable image).
 */
export async function readExif(data: Buffer): Promise<PhotoExif> {
  let tags: Record<string, unknown> | undefined;
  try {
    tags = await exifr.parse(data, {
      tiff: true,
      exif: true,
      gps: true,
      ifd1: false,
      interop: false,
      xmp: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
      makerNote: false,
      userComment: false,
      // Raw strings: exifr would read capture times in the server's time zone.
      reviveValues: false,
      translateValues: false,
    });
  } catch {
    return { ...none };
  }
  if (!tags) return { ...none };

  const position = validPosition(tags.latitude, tags.longitude);
  const result: PhotoExif = {
    latitude: position?.latitude ?? null,
    longitude: position?.longitude ?? null,
    takenAt:
      parseExifDate(tags.DateTimeOriginal, tags.OffsetTimeOriginal) ??
      parseExifDate(tags.CreateDate, tags.OffsetTimeDigitized),
  };
  const cameraMake = cleanText(tags.Make);
  const cameraModel = cleanText(tags.Model);
  if (cameraMake) result.cameraMake = cameraMake;
  if (cameraModel) result.cameraModel = cameraModel;
  return result;
}

/**
 * A position EXIF gives, or null when it is not one. Rounded to the centimetre: a GPS tag written as
 * a double can hold 5e-324, which PostgreSQL cannot compute a position from (centimetre-degrees.ts).
 */
export function validPosition(latitude: unknown, longitude: unknown): { latitude: number; longitude: number } | null {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude: centimetreDegrees(latitude), longitude: centimetreDegrees(longitude) };
}

/**
 * EXIF dates look like `2024:05:06 07:08:09`, in the camera's local time. With an offset tag
 * (`+02:00`) that is an exact instant; without one the wall-clock time is kept as if it were UTC,
 * which is stable whatever the server's time zone.
 */
export function parseExifDate(value: unknown, offset: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(utc);
  // Refuses placeholders such as `0000:00:00 00:00:00` and impossible dates that Date.UTC would roll over.
  if (
    year < 1800 ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return null;
  }
  const offsetMatch = typeof offset === 'string' ? /^([+-])(\d{2}):(\d{2})$/.exec(offset.trim()) : null;
  if (!offsetMatch) return date;
  const sign = offsetMatch[1] === '-' ? -1 : 1;
  const offsetMinutes = sign * (Number(offsetMatch[2]) * 60 + Number(offsetMatch[3]));
  return new Date(utc - offsetMinutes * 60_000);
}

function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: EXIF strings are often padded with NULs.
  const text = value.replace(/\u0000/g, '').trim();
  return text === '' ? undefined : text;
}
