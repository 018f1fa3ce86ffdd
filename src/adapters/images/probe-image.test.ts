import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { makeFlatPng, makeJpeg, makePng, makePngClaimingSize } from '../../../test/support/test-images.ts';
import { CorruptImageError, ImageTooLargeError, UnsupportedImageError } from './image-errors.ts';
import { probeImage } from './probe-image.ts';

function isUnsupportedButNotCorrupt(error: unknown): boolean {
  return error instanceof UnsupportedImageError && !(error instanceof CorruptImageError);
}

describe('probeImage', () => {
  it('recognises each accepted format from its bytes', async () => {
    const png = await makePng({ width: 120, height: 80 });
    const cases = {
      jpeg: await makeJpeg({ width: 120, height: 80 }),
      png,
      webp: await sharp(png).webp().toBuffer(),
      avif: await sharp(png).avif().toBuffer(),
      gif: await sharp(png).gif().toBuffer(),
    };
    for (const [format, bytes] of Object.entries(cases)) {
      assert.deepEqual(await probeImage(bytes), { format, width: 120, height: 80, orientation: 1 }, format);
    }
  });

  it('goes by the bytes, not the file name: a PNG saved as .jpg is a PNG', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'probe-'));
    await writeFile(join(directory, 'holiday.jpg'), await makePng({ width: 30, height: 20 }));
    const probe = await probeImage(await readFile(join(directory, 'holiday.jpg')));
    assert.equal(probe.format, 'png');
    await rm(directory, { recursive: true, force: true });
  });

  it('reports upright dimensions and the EXIF orientation', async () => {
    const sideways = await makeJpeg({ width: 600, height: 400, orientation: 6 });
    assert.deepEqual(await probeImage(sideways), { format: 'jpeg', width: 400, height: 600, orientation: 6 });
  });

  it('refuses what is not an image in an accepted format', async () => {
    const tiny = await makePng({ width: 8, height: 8 });
    const refused: Record<string, Buffer> = {
      empty: Buffer.alloc(0),
      text: Buffer.from('just some text, not a photo\n'),
      pdf: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
      svg: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      ),
      tiff: await sharp(tiny).tiff().toBuffer(),
    };
    for (const [name, bytes] of Object.entries(refused)) {
      await assert.rejects(probeImage(bytes), isUnsupportedButNotCorrupt, name);
    }
  });

  it('refuses truncated images as corrupt, without crashing', async () => {
    const jpeg = await makeJpeg({ width: 400, height: 300 });
    const png = await makePng({ width: 400, height: 300 });
    for (const [name, bytes] of [
      ['jpeg', jpeg],
      ['png', png],
    ] as const) {
      const truncated = bytes.subarray(0, Math.floor(bytes.length * 0.6));
      await assert.rejects(
        probeImage(truncated),
        (error: unknown) => error instanceof CorruptImageError && error instanceof UnsupportedImageError,
        name,
      );
    }
  });

  it('refuses a decompression bomb: large dimensions in a small file', async () => {
    const bomb = await makeFlatPng({ width: 3000, height: 3000 });
    assert.ok(bomb.length < 100_000, `the bomb is ${bomb.length} bytes`);
    await assert.rejects(probeImage(bomb, { maxPixels: 1_000_000 }), (error: unknown) => {
      assert.ok(error instanceof ImageTooLargeError);
      assert.deepEqual([error.width, error.height, error.maxPixels], [3000, 3000, 1_000_000]);
      return true;
    });
  });

  it('refuses, under the default limit, a header claiming 20000x20000 pixels before decoding anything', async () => {
    const claim = await makePngClaimingSize({ width: 20_000, height: 20_000 });
    await assert.rejects(probeImage(claim), (error: unknown) => {
      assert.ok(error instanceof ImageTooLargeError);
      assert.deepEqual([error.width, error.height, error.maxPixels], [20_000, 20_000, 50_000_000]);
      return true;
    });
  });

  it('accepts a 12 megapixel photo under the default limit', async () => {
    const photo = await makeJpeg({ width: 4000, height: 3000 });
    assert.deepEqual(await probeImage(photo), { format: 'jpeg', width: 4000, height: 3000, orientation: 1 });
  });
});
