/** EXIF values as sharp's `withExif` writes them (the demo world's photos and the tests' images). */

/** `YYYY:MM:DD HH:MM:SS` in UTC, EXIF's date-time text. */
export function exifDateText(value: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${value.getUTCFullYear()}:${pad(value.getUTCMonth() + 1)}:${pad(value.getUTCDate())} ` +
    `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}`
  );
}

/** A GPS coordinate as EXIF rationals `deg/1 min/1 sec*10000/10000` (about 3 mm of precision). */
export function exifDegrees(decimal: number): string {
  const absolute = Math.abs(decimal);
  const degrees = Math.floor(absolute);
  const minutes = Math.floor((absolute - degrees) * 60);
  const seconds = Math.round(((absolute - degrees) * 60 - minutes) * 60 * 10_000);
  return `${degrees}/1 ${minutes}/1 ${seconds}/10000`;
}
