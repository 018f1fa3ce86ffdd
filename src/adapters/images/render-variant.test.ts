import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { makeJpeg, makePng } from '../../../test/support/test-images.ts';
import { probeImage } from './probe-image.ts';
import { readExif } from './read-exif.ts';
import {
  maxVariantPixels,
  renderVariant,
  type VariantFormat,
  variantDimensions,
  variantLongestSide,
} from './render-variant.ts';

const formats: VariantFormat[] = ['jpeg', 'webp', 'avif', 'png'];

describe('renderVariant', () => {
  let landscape: Buffer;
  before(async () => {
    landscape = await makeJpeg({ width: 2400, height: 1600 });
  });

  it('publishes the size table', () => {
    assert.deepEqual(variantLongestSide, { thumb: 320, small: 1080, large: 2048, original: null });
  });

  it('fits each size inside its box, keeping the aspect ratio', async () => {
    const expected = { thumb: [320, 213], small: [1080, 720], large: [2048, 1365], original: [2400, 1600] } as const;
    for (const [size, [width, height]] of Object.entries(expected)) {
      const variant = await renderVariant(landscape, { format: 'webp', size: size as keyof typeof expected });
      assert.deepEqual([variant.width, variant.height], [width, height], size);
      const actual = await sharp(variant.data).metadata();
      assert.deepEqual([actual.width, actual.height], [width, height], `${size} bytes`);
    }
  });

  it('never enlarges a small image', async () => {
    const small = await makeJpeg({ width: 200, height: 100 });
    for (const size of ['thumb', 'small', 'large', 'original'] as const) {
      const variant = await renderVariant(small, { format: 'jpeg', size });
      assert.deepEqual([variant.width, variant.height], [200, 100], size);
    }
  });

  it('turns the image upright from its EXIF orientation', async () => {
    const sideways = await makeJpeg({ width: 600, height: 400, orientation: 6 });
    const variant = await renderVariant(sideways, { format: 'jpeg', size: 'thumb' });
    assert.deepEqual([variant.width, variant.height], [213, 320]);
    const metadata = await sharp(variant.data).metadata();
    assert.deepEqual([metadata.width, metadata.height, metadata.orientation], [213, 320, undefined]);
  });

  it('encodes the asked format, whatever the input, and names its content type', async () => {
    for (const format of formats) {
      const variant = await renderVariant(landscape, { format, size: 'thumb' });
      assert.equal((await probeImage(variant.data)).format, format);
      assert.equal(variant.contentType, `image/${format}`);
    }
  });

  it('strips every piece of metadata: no EXIF, GPS, camera, XMP, IPTC', async () => {
    const tagged = await makeJpeg({
      width: 800,
      height: 600,
      gps: { latitude: 48.858222, longitude: 2.2945 },
      takenAt: new Date('2025-07-14T21:00:00Z'),
      camera: { make: 'TestCam', model: 'Traveller 3' },
      orientation: 3,
    });
    assert.notEqual(
      (await readExif(tagged)).latitude,
      null,
      'the source must carry GPS for this test to mean anything',
    );
    for (const format of formats) {
      for (const size of ['thumb', 'original'] as const) {
        const { data } = await renderVariant(tagged, { format, size });
        const metadata = await sharp(data).metadata();
        assert.equal(metadata.exif, undefined, `${format} ${size} exif`);
        assert.equal(metadata.xmp, undefined, `${format} ${size} xmp`);
        assert.equal(metadata.iptc, undefined, `${format} ${size} iptc`);
        assert.equal(metadata.orientation, undefined, `${format} ${size} orientation`);
        assert.equal(metadata.icc, undefined, `${format} ${size} icc`);
        assert.deepEqual(await readExif(data), { latitude: null, longitude: null, takenAt: null }, `${format} ${size}`);
        assert.equal(data.includes('TestCam'), false, `${format} ${size} carries the camera name`);
        if (format === 'jpeg' || format === 'png') {
          assert.equal(await exifr.gps(data).catch(() => undefined), undefined, `${format} ${size} gps`);
        }
      }
    }
  });

  it('lays transparent areas on white when encoding JPEG', async () => {
    const halfTransparent = await makePng({ width: 40, height: 20, alpha: true });
    const { data } = await renderVariant(halfTransparent, { format: 'jpeg', size: 'thumb' });
    const { data: pixels, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
    const rightEdge = (10 * info.width + 39) * info.channels;
    assert.ok(pixels[rightEdge]! > 245 && pixels[rightEdge + 1]! > 245 && pixels[rightEdge + 2]! > 245);
  });
});

describe('the pixel bounds of expensive variants', () => {
  it('bounds every format in pixels: AVIF to 2048 x 2048, the others to 4096 x 4096', () => {
    assert.equal(maxVariantPixels.avif, 2048 * 2048);
    const huge = { width: 7000, height: 7000 };
    assert.deepEqual(variantDimensions(huge, 'avif', 'original'), { width: 2048, height: 2048 });
    assert.deepEqual(variantDimensions(huge, 'webp', 'original'), { width: 4096, height: 4096 });
    assert.deepEqual(variantDimensions(huge, 'png', 'large'), { width: 2048, height: 2048 });
    assert.deepEqual(variantDimensions(huge, 'avif', 'thumb'), { width: 320, height: 320 });
    const photo = { width: 4000, height: 3000 };
    const avif = variantDimensions(photo, 'avif', 'original');
    assert.ok(avif.width * avif.height <= maxVariantPixels.avif * 1.001, 'a 12 MP photo in AVIF is scaled down');
    assert.equal(Math.round((avif.width / avif.height) * 100), 133, 'keeping its aspect ratio');
    assert.deepEqual(variantDimensions(photo, 'jpeg', 'original'), photo, 'a 12 MP JPEG keeps its dimensions');
  });

  it('renders a 7000 x 7000 one-colour PNG (a small upload) in AVIF at the bounded size', async () => {
    const bomb = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const variant = await renderVariant(bomb, { format: 'avif', size: 'original' });
    assert.deepEqual([variant.width, variant.height], [2048, 2048]);
    const metadata = await sharp(variant.data).metadata();
    assert.deepEqual([metadata.width, metadata.height], [2048, 2048]);
  });
});
