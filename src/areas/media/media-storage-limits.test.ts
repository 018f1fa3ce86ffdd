/**
 * What a user can make the service keep: only the image's own data (bytes after its end are dropped),
 * within a per-user quota of MEDIA_QUOTA_MB; and what a served file's ETag tells (a keyed hash, not
 * the original's SHA-256).
 */
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { storedKeys, upload } from '../../../test/helpers/media-uploads.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { serverSecretPath } from '../../platform/secrets/server-secret.ts';
import { originalKey } from './media-storage-keys.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A PNG of random pixels: it does not compress, so its size is about width × height × 3 bytes. */
const noisePng = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

/** The queue's view of a pending post: what the service stored (size and hash of the original). */
async function storedOriginal(t: TestApp, hex: string) {
  const res = await t.request({ method: 'GET', url: '/admin/jobs/describe-queue?limit=200', token: adminToken });
  assert.equal(res.statusCode, 200);
  const item = res.json.data.find((media: { attributes: { hex: string } }) => media.attributes.hex === hex);
  assert.ok(item, 'the post is in the description queue');
  return item.attributes as { byteSize: number; contentHash: string };
}

describe('trailing bytes after an image', () => {
  let t: TestApp;
  let ada: TestUser;
  before(async () => {
    t = await createTestApp();
    ada = await createUser(t);
  });
  after(() => t.close());

  it('stores the image without what follows its end marker', async () => {
    const photo = await makeJpeg({ width: 160, height: 120, gps: { latitude: 48.8584, longitude: 2.2945 } });
    const smuggled = Buffer.concat([photo, Buffer.from('PK\x03\x04 a hidden archive', 'latin1'), randomBytes(4096)]);
    const res = await upload(t, '/api/users/me/media', ada.token, smuggled);
    assert.equal(res.statusCode, 201);
    assert.notEqual(res.json.data.attributes.position, null, 'the EXIF position is still read');
    const stored = await storedOriginal(t, res.json.data.attributes.hex);
    assert.equal(stored.byteSize, photo.length);
    assert.equal(stored.contentHash, sha256(photo));
    const original = await t.deps.storage.get(originalKey(res.json.data.attributes.hex, 'jpg'));
    assert.ok(original?.equals(photo), 'the stored original is the image alone');
  });
});

describe('storage quota (MEDIA_QUOTA_MB=1)', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let large: Buffer; // about 0.6 MB: one fits in 1 MB, two do not
  before(async () => {
    t = await createTestApp({ env: { MEDIA_QUOTA_MB: '1' } });
    ada = await createUser(t);
    bob = await createUser(t);
    large = await noisePng(360, 560);
  });
  after(() => t.close());

  it('refuses an upload that would pass the quota with 413 mediaQuotaExceeded, and stores nothing', async () => {
    const first = await upload(t, '/api/users/me/media', ada.token, large);
    assert.equal(first.statusCode, 201);
    const originals = async () => (await storedKeys(t.deps.storage)).filter((key) => key.startsWith('originals/'));
    const keysBefore = await originals();
    const second = await upload(t, '/api/users/me/media', ada.token, large);
    assert.equal(second.statusCode, 413);
    const [error] = second.json.errors;
    assert.equal(error.code, 'mediaQuotaExceeded');
    assert.deepEqual(error.source, { pointer: '/file' });
    assert.equal(error.meta.quotaBytes, 1024 * 1024);
    assert.equal(error.meta.usedBytes, large.length);
    assert.equal(error.meta.fileBytes, large.length);
    assert.match(error.title, /1 MB/);
    const mine = await t.request({ method: 'GET', url: '/api/users/me/media', token: ada.token });
    assert.equal(mine.json.data.length, 1);
    assert.deepEqual(await originals(), keysBefore, 'no file stored');

    // Another user has a quota of their own.
    assert.equal((await upload(t, '/api/users/me/media', bob.token, large)).statusCode, 201);

    // Deleting a post frees its bytes.
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/users/me/media/${first.json.data.id}`,
      token: ada.token,
    });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await upload(t, '/api/users/me/media', ada.token, large)).statusCode, 201);
  });

  it('counts avatars, and lets one replace the previous near the quota', async () => {
    const carol = await createUser(t);
    assert.equal((await upload(t, '/api/users/me/avatar', carol.token, large)).statusCode, 201);
    // The new avatar replaces the old one: 0.6 MB stored afterwards, not 1.2.
    assert.equal((await upload(t, '/api/users/me/avatar', carol.token, large)).statusCode, 201);
    const post = await upload(t, '/api/users/me/media', carol.token, large);
    assert.equal(post.statusCode, 413);
    assert.equal(post.json.errors[0].code, 'mediaQuotaExceeded');
  });

  it('lets only one of two parallel uploads in when both would not fit', async () => {
    const dan = await createUser(t);
    const answers = await Promise.all([
      upload(t, '/api/users/me/media', dan.token, large),
      upload(t, '/api/users/me/media', dan.token, large),
    ]);
    assert.deepEqual(answers.map((res) => res.statusCode).sort(), [201, 413]);
    const mine = await t.request({ method: 'GET', url: '/api/users/me/media', token: dan.token });
    assert.equal(mine.json.data.length, 1);
  });
});

describe('media ETags', () => {
  const secret = 'a-media-etag-secret-for-tests';
  let t: TestApp;
  let ada: TestUser;
  before(async () => {
    t = await createTestApp({ env: { MEDIA_ETAG_SECRET: secret } });
    ada = await createUser(t);
  });
  after(() => t.close());

  it('do not show the original’s hash: they are an HMAC of it under the server secret', async () => {
    const photo = await makeJpeg({ width: 160, height: 120 });
    const uploaded = await upload(t, '/api/users/me/media', ada.token, photo);
    assert.equal(uploaded.statusCode, 201);
    const hex = uploaded.json.data.attributes.hex;
    const res = await t.request({ method: 'GET', url: `/media/${hex}.webp?size=thumb` });
    assert.equal(res.statusCode, 200);
    const etag = String(res.headers.etag);
    assert.ok(!etag.includes(sha256(photo).slice(0, 16)), 'no part of the SHA-256 shows');
    const keyed = createHmac('sha256', secret).update(sha256(photo)).digest('hex').slice(0, 32);
    assert.match(etag, new RegExp(`^"${keyed}-thumb-webp-`));
    // The validator still works.
    const cached = await t.request({
      method: 'GET',
      url: `/media/${hex}.webp?size=thumb`,
      headers: { 'if-none-match': etag },
    });
    assert.equal(cached.statusCode, 304);
  });
});

describe('media ETags without MEDIA_ETAG_SECRET', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-etag-'));
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
  });
  after(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are keyed with a secret generated once and kept in DATA_DIR/secrets', async () => {
    const ada = await createUser(t);
    const photo = await makeJpeg({ width: 160, height: 120 });
    const hex = (await upload(t, '/api/users/me/media', ada.token, photo)).json.data.attributes.hex;
    const res = await t.request({ method: 'GET', url: `/media/${hex}.webp?size=thumb` });
    assert.equal(res.statusCode, 200);
    const secret = readFileSync(serverSecretPath(dataDir, 'media-etag'), 'utf8').trim();
    assert.ok(secret.length >= 32);
    const keyed = createHmac('sha256', secret).update(sha256(photo)).digest('hex').slice(0, 32);
    assert.match(String(res.headers.etag), new RegExp(`^"${keyed}-thumb-webp-`));
  });
});
