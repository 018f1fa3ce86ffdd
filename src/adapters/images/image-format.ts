/** Formats accepted for upload, named after what the bytes contain, never after a file name. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'heif' | 'gif';

export const imageContentTypes: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  heif: 'image/heic',
  gif: 'image/gif',
};

/** For storage keys such as `originals/ab/cd/<hex>.jpg`. */
export const imageFileExtensions: Record<ImageFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  heif: 'heic',
  gif: 'gif',
};

/** Above a 12 MP photo (4000x3000) with a wide margin, far below what would exhaust memory. */
export const defaultMaxPixels = 50_000_000;
