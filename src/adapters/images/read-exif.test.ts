import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { makeJpeg, makePng } from '../../../test/support/test-images.ts';
import { parseExifDate, readExif, validPosition } from './read-exif.ts';

describe('readExif', () => {
  it('reads position, capture time and camera from a JPEG', async () => {
    const jpeg = await makeJpeg({
      width: 64,
      height: 48,
      gps: { latitude: -33.856784, longitude: 151.215297 },
      takenAt: new Date('2024-05-06T07:08:09Z'),
      camera: { make: 'TestCam', model: 'Traveller 3' },
    });
    const exif = await readExif(jpeg);
    assert.ok(Math.abs(exif.latitude! - -33.856784) < 1e-6, `latitude ${exif.latitude}`);
    assert.ok(Math.abs(exif.longitude! - 151.215297) < 1e-6, `longitude ${exif.longitude}`);
    assert.deepEqual(exif.takenAt, new Date('2024-05-06T07:08:09Z'));
    assert.equal(exif.cameraMake, 'TestCam');
    assert.equal(exif.cameraModel, 'Traveller 3');
  });

  it('gives western and southern positions their sign', async () => {
    const exif = await readExif(
      await makeJpeg({ width: 16, height: 16, gps: { latitude: 40.689247, longitude: -74.044502 } }),
    );
    assert.ok(Math.abs(exif.latitude! - 40.689247) < 1e-6);
    assert.ok(Math.abs(exif.longitude! - -74.044502) < 1e-6);
    assert.equal(exif.takenAt, null);
  });

  it('applies the offset tag, and does not depend on the server time zone', async () => {
    const jpeg = await makeJpeg({ width: 16, height: 16, takenAt: '2024:05:06 09:08:09', takenAtOffset: '+02:00' });
    const naive = await makeJpeg({ width: 16, height: 16, takenAt: '2024:05:06 09:08:09' });
    const previousZone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      assert.deepEqual((await readExif(jpeg)).takenAt, new Date('2024-05-06T07:08:09Z'));
      assert.deepEqual((await readExif(naive)).takenAt, new Date('2024-05-06T09:08:09Z'));
    } finally {
      if (previousZone === undefined) delete process.env.TZ;
      else process.env.TZ = previousZone;
    }
  });

  it('keeps a position to the centimetre, and refuses what is not one', () => {
    // A GPS tag written as a double can hold a denormal, which PostgreSQL's radians() cannot take.
    assert.deepEqual(validPosition(5e-324, -1e-170), { latitude: 0, longitude: 0 });
    assert.deepEqual(validPosition(48.858370123456, 2.2944813), { latitude: 48.8583701, longitude: 2.2944813 });
    assert.equal(validPosition(91, 0), null);
    assert.equal(validPosition(Number.NaN, 0), null);
    assert.equal(validPosition('48.8', 2.3), null);
  });

  it('answers nulls, without camera fields, for images without EXIF', async () => {
    const plainJpeg = await sharp(await makePng({ width: 16, height: 16 }))
      .jpeg()
      .toBuffer();
    for (const image of [
      plainJpeg,
      await makePng({ width: 16, height: 16 }),
      await makeJpeg({ width: 16, height: 16 }),
    ]) {
      assert.deepEqual(await readExif(image), { latitude: null, longitude: null, takenAt: null });
    }
  });

  it('never throws, whatever the bytes', async () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from('plain text'), Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00])]) {
      assert.deepEqual(await readExif(bytes), { latitude: null, longitude: null, takenAt: null });
    }
  });
});

describe('parseExifDate', () => {
  it('reads EXIF date text, refusing placeholders and impossible dates', () => {
    assert.deepEqual(parseExifDate('2023:12:31 23:59:59', undefined), new Date('2023-12-31T23:59:59Z'));
    assert.deepEqual(parseExifDate('2023:12:31 23:59:59', '-05:30'), new Date('2024-01-01T05:29:59Z'));
    assert.equal(parseExifDate('0000:00:00 00:00:00', undefined), null);
    assert.equal(parseExifDate('2023:02:30 10:00:00', undefined), null);
    assert.equal(parseExifDate('2023:01:01 10:00:60', undefined), null);
    assert.equal(parseExifDate('yesterday', undefined), null);
    assert.equal(parseExifDate(20230101, undefined), null);
  });
});
