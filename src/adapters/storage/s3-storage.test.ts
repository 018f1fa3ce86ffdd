import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeS3Server, startFakeS3Server } from '../../../test/support/fake-s3-server.ts';
import { describeMediaStorageContract } from './media-storage.contract.ts';
import { S3Storage } from './s3-storage.ts';

describeMediaStorageContract('S3Storage', async () => {
  const server = await startFakeS3Server({ pageSize: 2 });
  const storage = new S3Storage(server);
  return {
    storage,
    cleanup: async () => {
      storage.destroy();
      await server.close();
    },
  };
});

describe('S3Storage against the fake S3 server', () => {
  let server: FakeS3Server;
  let storage: S3Storage;
  before(async () => {
    server = await startFakeS3Server({ pageSize: 2 });
    storage = new S3Storage(server);
  });
  after(async () => {
    storage.destroy();
    await server.close();
  });

  it('follows continuation tokens until the listing is complete', async () => {
    for (const key of ['pages/1', 'pages/2', 'pages/3', 'pages/4', 'pages/5']) {
      await storage.put(key, Buffer.from(key), 'text/plain');
    }
    const listRequestsBefore = server.requests.filter((request) => request.url.includes('list-type=2')).length;
    const keys: string[] = [];
    for await (const object of storage.list('pages/')) keys.push(object.key);
    const listRequests = server.requests.filter((request) => request.url.includes('list-type=2')).length;
    assert.deepEqual(keys, ['pages/1', 'pages/2', 'pages/3', 'pages/4', 'pages/5']);
    assert.equal(listRequests - listRequestsBefore, 3);
  });

  it('stores the content type with the object', async () => {
    await storage.put('variants/ab/small.webp', Buffer.from('webp'), 'image/webp');
    const put = server.requests.findLast((request) => request.method === 'PUT');
    assert.equal(put?.headers['content-type'], 'image/webp');
    assert.deepEqual(server.objects().get('variants/ab/small.webp'), Buffer.from('webp'));
  });

  it('reports refused credentials as errors, never as a missing object', async () => {
    const stranger = new S3Storage({ ...server, accessKeyId: 'SOMEONE-ELSE' });
    await assert.rejects(stranger.get('variants/ab/small.webp'), { name: 'InvalidAccessKeyId' });
    await assert.rejects(stranger.put('x.jpg', Buffer.from('x'), 'image/jpeg'), { name: 'InvalidAccessKeyId' });
    stranger.destroy();
  });

  it('reports a missing bucket as an error, never as a missing object', async () => {
    const lost = new S3Storage({ ...server, bucket: 'no-such-bucket' });
    await assert.rejects(lost.get('originals/a.jpg'), { name: 'NoSuchBucket' });
    lost.destroy();
  });
});
