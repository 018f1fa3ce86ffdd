export { sha256Hex } from './content-hash.ts';
export { imageDataEnd, withoutTrailingBytes } from './image-data-end.ts';
export { CorruptImageError, ImageTooLargeError, UnsupportedImageError } from './image-errors.ts';
export { defaultMaxPixels, type ImageFormat, imageContentTypes, imageFileExtensions } from './image-format.ts';
export { type ImageProbe, type ProbeOptions, probeImage } from './probe-image.ts';
export { type PhotoExif, parseExifDate, readExif } from './read-exif.ts';
export {
  maxVariantPixels,
  type RenderedVariant,
  renderVariant,
  type VariantFormat,
  type VariantRequest,
  type VariantSize,
  variantContentTypes,
  variantDimensions,
  variantLongestSide,
} from './render-variant.ts';
