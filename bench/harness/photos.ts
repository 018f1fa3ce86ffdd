/** Test photos for the media benchmarks. */
import sharp from 'sharp';

/**
 * A 12 MP JPEG of noise: it compresses like a detailed photo (a few MB) and is the slowest kind of
 * image to decode and encode, unlike a smooth gradient.
 */
export function noisyPhoto(width = 4000, height = 3000) {
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}
