import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMediaStorage } from './create-media-storage.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';

const s3 = {
  endpoint: null,
  region: 'eu-west-3',
  bucket: 'travel-media',
  accessKeyId: 'id',
  secretAccessKey: 'secret',
  forcePathStyle: false,
};

describe('createMediaStorage', () => {
  it('uses local files under the given root when S3 is not configured', async () => {
    const storage = await createMediaStorage({ localRoot: '/var/lib/app/media', s3: null });
    assert.ok(storage instanceof LocalStorage);
    assert.equal(storage.root, '/var/lib/app/media');
  });

  it('uses local files when the bucket name is empty', async () => {
    assert.ok(
      (await createMediaStorage({ localRoot: '/tmp/media', s3: { ...s3, bucket: '' } })) instanceof LocalStorage,
    );
  });

  it('uses S3 when a bucket is configured', async () => {
    const storage = await createMediaStorage({ localRoot: '/tmp/media', s3 });
    assert.ok(storage instanceof S3Storage);
    assert.equal(storage.bucket, 'travel-media');
    storage.destroy();
  });
});
