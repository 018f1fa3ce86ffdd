/** The image adapter's errors as coded HTTP errors (415, 422, 413). */
import { CorruptImageError, ImageTooLargeError, UnsupportedImageError } from '../../adapters/images/index.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';

export function imageErrorToAppError(error: unknown): unknown {
  const source = { pointer: '/file' };
  if (error instanceof CorruptImageError) return new AppError('corruptImage', { source, detail: error.message });
  if (error instanceof UnsupportedImageError)
    return new AppError('unsupportedImage', { source, detail: error.message });
  if (error instanceof ImageTooLargeError) {
    return new AppError('imageTooLarge', {
      source,
      detail: error.message,
      values: { maxMegapixels: Math.floor(error.maxPixels / 1_000_000) },
      meta: { width: error.width, height: error.height, maxPixels: error.maxPixels },
    });
  }
  return error;
}
