import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { startFakeS3Server } from '../../../test/support/fake-s3-server.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { readExif } from '../../adapters/images/index.ts';
import { LocalStorage, type MediaStorage } from '../../adapters/storage/index.ts';
import { S3Storage } from '../../adapters/storage/s3-storage.ts';
import { servableCacheTtlMs } from './media.service.ts';

/** Any storage, with its writes counted, to see that a variant is rendered once. */
function countingStorage(inner: MediaStorage): MediaStorage & { puts: string[] } {
  const puts: string[] = [];
  return {
    puts,
    put: (key, data, contentType) => {
      puts.push(key);
      return inner.put(key, data, contentType);
    },
    get: (key) => inner.get(key),
    getStream: (key, range) => inner.getStream(key, range),
    stat: (key) => inner.stat(key),
    exists: (key) => inner.exists(key),
    delete: (key) => inner.delete(key),
    list: (prefix) => inner.list(prefix),
  };
}

for (const backend of ['local files', 'S3'] as const)
  describe(`serving media files (${backend})`, () => {
    let t: TestApp;
    let storage: ReturnType<typeof countingStorage>;
    let ada: TestUser;
    let hex: string;
    let closeS3 = async () => {};
    before(async () => {
      if (backend === 'S3') {
        const server = await startFakeS3Server();
        const s3 = new S3Storage(server);
        storage = countingStorage(s3);
        closeS3 = async () => {
          s3.destroy();
          await server.close();
        };
      } else {
        storage = countingStorage(new LocalStorage(mkdtempSync(join(tmpdir(), 'media-files-'))));
      }
      t = await createTestApp({ deps: { storage } });
      ada = await createUser(t);
      const jpeg = await makeJpeg({
        width: 1600,
        height: 1200,
        gps: { latitude: 45.76, longitude: 4.83 },
        takenAt: '2026:01:02 03:04:05',
        camera: { make: 'Canon', model: 'EOS' },
      });
      const res = await upload(t, '/api/users/me/media', ada.token, jpeg);
      hex = res.json.data.attributes.hex;
    });
    after(async () => {
      await t.close();
      await closeS3();
    });

    it('serves the format its extension names, EXIF stripped, cacheable for a year', async () => {
      for (const [ext, type, format] of [
        ['webp', 'image/webp', 'webp'],
        ['jpg', 'image/jpeg', 'jpeg'],
        ['avif', 'image/avif', 'heif'],
        ['png', 'image/png', 'png'],
      ] as const) {
        const res = await t.request({ method: 'GET', url: `/media/${hex}.${ext}` });
        assert.equal(res.statusCode, 200, `${ext}: ${res.body}`);
        assert.equal(res.headers['content-type'], type);
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.match(res.headers.etag as string, /^"[0-9a-f]{32}-original-/);
        const metadata = await sharp(res.rawPayload).metadata();
        assert.equal(metadata.format, format);
        assert.equal(metadata.exif, undefined, `${ext} carries no EXIF`);
        assert.equal(metadata.width, 1600);
        const exif = await readExif(res.rawPayload);
        assert.equal(exif.latitude, null);
        assert.equal(exif.takenAt, null);
      }
    });

    it('renders each size once and then serves the cached file', async () => {
      const first = await t.request({ method: 'GET', url: `/media/${hex}.webp?size=thumb` });
      assert.equal(first.statusCode, 200);
      const metadata = await sharp(first.rawPayload).metadata();
      assert.equal(Math.max(metadata.width!, metadata.height!), 320);
      const rendersBefore = storage.puts.length;
      const again = await Promise.all(
        [1, 2, 3].map(() => t.request({ method: 'GET', url: `/media/${hex}.webp?size=thumb` })),
      );
      assert.ok(again.every((res) => res.rawPayload.equals(first.rawPayload)));
      assert.equal(storage.puts.length, rendersBefore, 'no second render');
      const parallel = await Promise.all(
        [1, 2, 3].map(() => t.request({ method: 'GET', url: `/media/${hex}.webp?size=small` })),
      );
      assert.ok(parallel.every((res) => res.statusCode === 200));
      assert.equal(
        storage.puts.filter((key) => key.endsWith('/small.webp')).length,
        1,
        'concurrent first requests share one render',
      );
      const bad = await t.request({
        method: 'GET',
        url: `/media/${hex}.webp?size=huge`,
        headers: { accept: 'application/json' },
      });
      assert.equal(bad.statusCode, 400);
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const res = await t.request({ method: 'GET', url: `/media/${hex}.webp?size=large` });
      const etag = res.headers.etag as string;
      const cached = await t.request({
        method: 'GET',
        url: `/media/${hex}.webp?size=large`,
        headers: { 'if-none-match': etag },
      });
      assert.equal(cached.statusCode, 304);
      assert.equal(cached.body, '');
      assert.equal(cached.headers.etag, etag);
      const other = await t.request({
        method: 'GET',
        url: `/media/${hex}.webp?size=thumb`,
        headers: { 'if-none-match': etag },
      });
      assert.equal(other.statusCode, 200, 'another variant has another ETag');
    });

    it('serves byte ranges (206) and refuses ranges past the end (416)', async () => {
      const whole = await t.request({ method: 'GET', url: `/media/${hex}.jpg` });
      assert.equal(whole.headers['accept-ranges'], 'bytes');
      const size = whole.rawPayload.length;
      const part = await t.request({ method: 'GET', url: `/media/${hex}.jpg`, headers: { range: 'bytes=10-19' } });
      assert.equal(part.statusCode, 206);
      assert.equal(part.headers['content-range'], `bytes 10-19/${size}`);
      assert.deepEqual(part.rawPayload, whole.rawPayload.subarray(10, 20));
      const suffix = await t.request({ method: 'GET', url: `/media/${hex}.jpg`, headers: { range: 'bytes=-5' } });
      assert.equal(suffix.statusCode, 206);
      assert.deepEqual(suffix.rawPayload, whole.rawPayload.subarray(size - 5));
      const open = await t.request({
        method: 'GET',
        url: `/media/${hex}.jpg`,
        headers: { range: `bytes=${size - 3}-` },
      });
      assert.deepEqual(open.rawPayload, whole.rawPayload.subarray(size - 3));
      const past = await t.request({
        method: 'GET',
        url: `/media/${hex}.jpg`,
        headers: { range: `bytes=${size}-`, accept: 'application/json' },
      });
      assert.equal(past.statusCode, 416);
      assert.equal(past.headers['content-range'], `bytes */${size}`);
      assert.equal(past.json.errors[0].code, 'rangeNotSatisfiable');
      const stale = await t.request({
        method: 'GET',
        url: `/media/${hex}.jpg`,
        headers: { range: 'bytes=0-9', 'if-range': '"other"' },
      });
      assert.equal(stale.statusCode, 200, 'If-Range with another validator gets the whole file');
    });

    it('answers 404 for unknown, unpublished, hidden and deleted media, and unknown extensions', async () => {
      const other = await upload(t, '/api/users/me/media', ada.token, await makeJpeg({ width: 40, height: 40 }));
      const otherHex = other.json.data.attributes.hex;
      const get = (url: string) => t.request({ method: 'GET', url, headers: { accept: 'application/json' } });
      assert.equal((await get(`/media/${otherHex}.webp`)).statusCode, 200);
      assert.equal((await get(`/media/${otherHex}.gif`)).statusCode, 404);
      assert.equal((await get('/media/0123456789abcdef0123456789abcdef.webp')).statusCode, 404);
      assert.equal((await get('/media/not-a-hex.webp')).statusCode, 404);
      const admin = (method: 'PUT' | 'DELETE', url: string, body?: unknown) =>
        t.request({ method, url, token: adminToken, ...(body ? { body } : {}) });

      assert.equal((await admin('PUT', `/admin/media/${otherHex}/published`, { published: false })).statusCode, 200);
      assert.equal((await get(`/media/${otherHex}.webp`)).statusCode, 404);
      await admin('PUT', `/admin/media/${otherHex}/published`, { published: true });
      assert.equal((await admin('PUT', `/admin/media/${otherHex}/flag`, { flag: 2 })).statusCode, 200);
      assert.equal((await get(`/media/${otherHex}.webp`)).statusCode, 404);
      await admin('PUT', `/admin/media/${otherHex}/flag`, { flag: 1 });
      assert.equal((await get(`/media/${otherHex}.webp`)).statusCode, 200, 'sensitive media stay reachable by link');
      assert.equal((await admin('DELETE', `/admin/media/${otherHex}`)).statusCode, 204);
      assert.equal((await get(`/media/${otherHex}.webp`)).statusCode, 404);
    });

    it('sees a change made by another instance within the serving cache time', async () => {
      const other = await upload(t, '/api/users/me/media', ada.token, await makeJpeg({ width: 40, height: 40 }));
      const otherHex: string = other.json.data.attributes.hex;
      const get = () =>
        t.request({ method: 'GET', url: `/media/${otherHex}.webp`, headers: { accept: 'application/json' } });
      assert.equal((await get()).statusCode, 200);
      // Another instance unpublishes it: this process's repository never sees that write.
      await t.deps.database.db.execute(sql`UPDATE media SET published = false WHERE id = ${other.json.data.id}`);
      assert.equal((await get()).statusCode, 200, 'still served from the cache');
      t.clock.advance(servableCacheTtlMs);
      assert.equal((await get()).statusCode, 404, 'gone once the cached row expired');
    });
  });
