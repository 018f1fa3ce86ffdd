import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { makeJpeg, makePng } from '../../../test/support/test-images.ts';
import { withoutTrailingBytes } from './image-data-end.ts';

// Bytes an attacker might append: a ZIP header (a polyglot), and a JPEG end marker to mislead a search.
const junk = Buffer.concat([
  Buffer.from('PK\x03\x04 hidden archive ', 'latin1'),
  Buffer.from([0xff, 0xd9, 0x00, 0x3b]),
]);

const gradient = () =>
  sharp(Buffer.from(Array.from({ length: 64 * 48 * 3 }, (_, i) => (i * 7) % 256)), {
    raw: { width: 64, height: 48, channels: 3 },
  });

describe('image data end', () => {
  it('drops the bytes after the image, in every format that can be written here', async () => {
    const images: Record<string, Buffer> = {
      jpeg: await makeJpeg({ width: 120, height: 80, gps: { latitude: 48.85, longitude: 2.35 } }),
      progressiveJpeg: await gradient().jpeg({ progressive: true }).toBuffer(),
      png: await makePng({ width: 120, height: 80 }),
      webp: await gradient().webp().toBuffer(),
      gif: await gradient().gif().toBuffer(),
      avif: await gradient().avif().toBuffer(),
    };
    for (const [name, image] of Object.entries(images)) {
      assert.ok(withoutTrailingBytes(image).equals(image), `${name}: nothing to drop`);
      assert.ok(withoutTrailingBytes(Buffer.concat([image, junk])).equals(image), `${name}: trailing bytes dropped`);
    }
  });

  it('does not cut a JPEG at an end marker inside its metadata (an embedded thumbnail)', async () => {
    const photo = await makeJpeg({ width: 120, height: 80 });
    const thumbnail = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    const app1 = Buffer.concat([
      Buffer.from([0xff, 0xe1, 0x00, 2 + 6 + thumbnail.length]),
      Buffer.from('Exif\0\0'),
      thumbnail,
    ]);
    const withThumbnail = Buffer.concat([photo.subarray(0, 2), app1, photo.subarray(2)]);
    assert.ok(withoutTrailingBytes(Buffer.concat([withThumbnail, junk])).equals(withThumbnail));
  });

  it('keeps what it cannot follow to its end whole', () => {
    const truncated = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a]);
    assert.equal(withoutTrailingBytes(truncated), truncated);
    const text = Buffer.from('not an image at all');
    assert.equal(withoutTrailingBytes(text), text);
  });
});
