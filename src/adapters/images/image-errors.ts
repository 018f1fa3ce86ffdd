/** Errors the HTTP layer maps to statuses: UnsupportedImageError 415, CorruptImageError 422, ImageTooLargeError 413. */

/** The bytes are not an image in an accepted format (jpeg, png, webp, avif, heif, gif). */
export class UnsupportedImageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnsupportedImageError';
  }
}

/** The header names an accepted format but the pixel data cannot be decoded (truncated or damaged file). */
export class CorruptImageError extends UnsupportedImageError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CorruptImageError';
  }
}

/** The image has more pixels than allowed: a decompression bomb, or simply too big to process. */
export class ImageTooLargeError extends Error {
  readonly width: number;
  readonly height: number;
  readonly maxPixels: number;

  constructor(width: number, height: number, maxPixels: number) {
    super(`image of ${width}x${height} pixels exceeds the limit of ${maxPixels} pixels`);
    this.width = width;
    this.height = height;
    this.maxPixels = maxPixels;
    this.name = 'ImageTooLargeError';
  }
}
