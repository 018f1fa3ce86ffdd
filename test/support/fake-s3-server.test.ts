import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ManualClock } from '../../src/platform/clock.ts';
import { decodeAwsChunked, type FakeS3Server, startFakeS3Server } from './fake-s3-server.ts';

/** A request with only the parts of SigV4 the fake server looks at. */
function signedHeaders(server: FakeS3Server, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=${server.accessKeyId}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00`,
    ...extra,
  };
}

describe('fake S3 server', () => {
  const clock = new ManualClock('2026-03-04T05:06:07.890Z');
  let server: FakeS3Server;
  let client: S3Client;
  before(async () => {
    server = await startFakeS3Server({ clock });
    client = new S3Client({
      endpoint: server.endpoint,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
  });
  after(async () => {
    client.destroy();
    await server.close();
  });

  it('decodes the aws-chunked body the SDK sends for a stream', async () => {
    const body = Readable.from([Buffer.from('streamed '), Buffer.from('in two chunks')]);
    await client.send(
      new PutObjectCommand({ Bucket: server.bucket, Key: 'chunked.txt', Body: body, ContentLength: 22 }),
    );
    const put = server.requests.findLast((request) => request.method === 'PUT');
    assert.equal(put?.headers['content-encoding'], 'aws-chunked');
    assert.equal(put?.headers['x-amz-trailer'], 'x-amz-checksum-crc32');
    assert.equal(server.objects().get('chunked.txt')?.toString(), 'streamed in two chunks');
  });

  it('decodes signed chunks and trailers', () => {
    const signature = 'chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648';
    const raw = Buffer.from(
      `5;${signature}\r\nhello\r\n6;${signature}\r\n world\r\n0;${signature}\r\n` +
        'x-amz-checksum-crc32:DUoRhQ==\r\n\r\n',
    );
    const decoded = decodeAwsChunked(raw);
    assert.equal(decoded.data.toString(), 'hello world');
    assert.deepEqual(decoded.trailers, { 'x-amz-checksum-crc32': 'DUoRhQ==' });
    assert.throws(() => decodeAwsChunked(Buffer.from('5\r\nhel')), /shorter than its declared size/);
    assert.throws(() => decodeAwsChunked(Buffer.from('zz\r\n')), /Invalid aws-chunked chunk size/);
  });

  it('refuses a body whose checksum does not match', async () => {
    const response = await fetch(`${server.endpoint}/${server.bucket}/bad.txt`, {
      method: 'PUT',
      headers: signedHeaders(server, { 'x-amz-checksum-crc32': 'AAAAAA==' }),
      body: 'hello world',
    });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /<Code>BadDigest<\/Code>/);
    const chunkedWithBadTrailer = await fetch(`${server.endpoint}/${server.bucket}/bad.txt`, {
      method: 'PUT',
      headers: signedHeaders(server, {
        'content-encoding': 'aws-chunked',
        'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
        'x-amz-decoded-content-length': '11',
      }),
      body: 'b\r\nhello world\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n',
    });
    assert.equal(chunkedWithBadTrailer.status, 400);
    assert.match(await chunkedWithBadTrailer.text(), /<Code>BadDigest<\/Code>/);
    assert.equal(server.objects().has('bad.txt'), false);
  });

  it('refuses requests without the expected access key id', async () => {
    const unsigned = await fetch(`${server.endpoint}/${server.bucket}/any.txt`);
    assert.equal(unsigned.status, 403);
    assert.match(await unsigned.text(), /<Code>AccessDenied<\/Code>/);
    const stranger = await fetch(`${server.endpoint}/${server.bucket}/any.txt`, {
      headers: { authorization: 'AWS4-HMAC-SHA256 Credential=SOMEONE/20260101/us-east-1/s3/aws4_request' },
    });
    assert.equal(stranger.status, 403);
  });

  it('answers ranges as S3 does: 206 with Content-Range, suffix ranges, 416 past the end', async () => {
    await client.send(
      new PutObjectCommand({ Bucket: server.bucket, Key: 'range.txt', Body: 'streamed in two chunks' }),
    );
    const url = `${server.endpoint}/${server.bucket}/range.txt`;
    const middle = await fetch(url, { headers: signedHeaders(server, { range: 'bytes=9-11' }) });
    assert.equal(middle.status, 206);
    assert.equal(middle.headers.get('content-range'), 'bytes 9-11/22');
    assert.equal(await middle.text(), 'in ');
    const suffix = await fetch(url, { headers: signedHeaders(server, { range: 'bytes=-6' }) });
    assert.equal(await suffix.text(), 'chunks');
    const beyond = await fetch(url, { headers: signedHeaders(server, { range: 'bytes=22-30' }) });
    assert.equal(beyond.status, 416);
    assert.match(await beyond.text(), /<Code>InvalidRange<\/Code>/);
  });

  it('stamps LastModified from its clock, in whole seconds', async () => {
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: 'dated.txt', Body: 'x' }));
    const object = await client.send(new GetObjectCommand({ Bucket: server.bucket, Key: 'dated.txt' }));
    assert.deepEqual(object.LastModified, new Date('2026-03-04T05:06:07.000Z'));
    await object.Body?.transformToString();
  });

  it('answers NoSuchKey for a missing object and NotImplemented for what it does not speak', async () => {
    await assert.rejects(client.send(new GetObjectCommand({ Bucket: server.bucket, Key: 'missing' })), {
      name: 'NoSuchKey',
    });
    const multipart = await fetch(`${server.endpoint}/${server.bucket}/big.bin?uploads`, {
      method: 'POST',
      headers: signedHeaders(server),
    });
    assert.equal(multipart.status, 501);
  });
});
