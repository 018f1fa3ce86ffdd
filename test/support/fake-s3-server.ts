/**
 * A small S3-compatible server for tests: objects live in memory, requests arrive on 127.0.0.1 in the
 * path style (`/<bucket>/<key>`) the AWS SDK v3 uses with `forcePathStyle: true`.
 *
 * It speaks PutObject (plain and `aws-chunked` bodies, checksums verified), GetObject (with Range),
 * HeadObject, DeleteObject and ListObjectsV2 (small pages on demand, to exercise continuation tokens).
 * It checks that requests carry the expected access key id but does not verify signatures.
 * Anything else (multipart uploads, copies, delimiters) answers 501 NotImplemented rather than lie.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { type Clock, systemClock } from '../../src/platform/clock.ts';

export interface FakeS3ServerOptions {
  /** Most keys one ListObjectsV2 page returns, whatever max-keys the client asks for (default 1000). */
  pageSize?: number;
  /** Stamps LastModified; defaults to the system clock. */
  clock?: Clock;
  bucket?: string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface FakeS3Server {
  /** Pass these (with `forcePathStyle: true`) to an S3 client or to S3Storage. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: true;
  /** Every request received, oldest first, so tests can check what the client really sent. */
  requests: RecordedRequest[];
  /** The stored objects' bytes by key, decoded as a real S3 would store them. */
  objects(): Map<string, Buffer>;
  close(): Promise<void>;
}

interface StoredObject {
  data: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
  crc32?: string;
}

class S3Error extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const xmlHeader = '<?xml version="1.0" encoding="UTF-8"?>\n';

export async function startFakeS3Server(options: FakeS3ServerOptions = {}): Promise<FakeS3Server> {
  const pageSize = options.pageSize ?? 1000;
  const clock = options.clock ?? systemClock;
  const bucket = options.bucket ?? 'test-media';
  const accessKeyId = 'FAKEACCESSKEY';
  const objects = new Map<string, StoredObject>();
  const requests: RecordedRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    requests.push({ method, url: req.url ?? '/', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://fake-s3');
    const body = await readAll(req);
    checkAccessKey(req, url, accessKeyId);

    const [bucketName = '', ...keyParts] = url.pathname.slice(1).split('/');
    if (decodeURIComponent(bucketName) !== bucket) {
      throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist.');
    }
    const key = decodeURIComponent(keyParts.join('/'));
    if (key === '') {
      if (method === 'GET' && url.searchParams.get('list-type') === '2') {
        return sendXml(res, 200, listObjectsV2(url.searchParams));
      }
      if (method === 'HEAD') return void res.writeHead(200).end();
      throw new S3Error(501, 'NotImplemented', `${method} on a bucket is not implemented by the fake server.`);
    }
    if (url.searchParams.has('uploads') || url.searchParams.has('uploadId') || req.headers['x-amz-copy-source']) {
      throw new S3Error(501, 'NotImplemented', 'Multipart uploads and copies are not implemented by the fake server.');
    }
    switch (method) {
      case 'PUT':
        return putObject(req, res, key, body);
      case 'GET':
      case 'HEAD':
        return getObject(req, res, key, method === 'GET');
      case 'DELETE':
        objects.delete(key);
        return void res.writeHead(204).end();
      default:
        throw new S3Error(501, 'NotImplemented', `${method} is not implemented by the fake server.`);
    }
  }

  function putObject(req: IncomingMessage, res: ServerResponse, key: string, raw: Buffer): void {
    const { data, trailers } = decodePutBody(req, raw);
    const checksums = { ...pickChecksumHeaders(req.headers), ...trailers };
    verifyChecksums(data, checksums, header(req, 'content-md5'));
    const stored: StoredObject = {
      data,
      contentType: req.headers['content-type'] ?? 'binary/octet-stream',
      etag: `"${createHash('md5').update(data).digest('hex')}"`,
      // S3 keeps whole seconds (Last-Modified is an HTTP date).
      lastModified: new Date(Math.floor(clock.now().getTime() / 1000) * 1000),
      crc32: checksums['x-amz-checksum-crc32'],
    };
    objects.set(key, stored);
    res.writeHead(200, { ETag: stored.etag }).end();
  }

  function getObject(req: IncomingMessage, res: ServerResponse, key: string, withBody: boolean): void {
    const object = objects.get(key);
    if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    const size = object.data.length;
    const headers: Record<string, string | number> = {
      'Content-Type': object.contentType,
      ETag: object.etag,
      'Last-Modified': object.lastModified.toUTCString(),
      'Accept-Ranges': 'bytes',
    };
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable');
    }
    if (range) {
      const part = object.data.subarray(range.start, range.end + 1);
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['Content-Length'] = part.length;
      res.writeHead(206, headers).end(withBody ? part : undefined);
      return;
    }
    if (object.crc32 && req.headers['x-amz-checksum-mode'] === 'ENABLED')
      headers['x-amz-checksum-crc32'] = object.crc32;
    headers['Content-Length'] = size;
    res.writeHead(200, headers).end(withBody ? object.data : undefined);
  }

  function listObjectsV2(params: URLSearchParams): string {
    if (params.get('delimiter')) {
      throw new S3Error(501, 'NotImplemented', 'Listing with a delimiter is not implemented by the fake server.');
    }
    const prefix = params.get('prefix') ?? '';
    const requestedMax = Number(params.get('max-keys') ?? 1000);
    const maxKeys = Math.max(0, Math.min(Number.isInteger(requestedMax) ? requestedMax : 1000, pageSize));
    const token = params.get('continuation-token');
    const startAfter = params.get('start-after');
    const after = token !== null ? Buffer.from(token, 'base64url').toString('utf8') : startAfter;
    const urlEncode = params.get('encoding-type') === 'url';

    const matching = [...objects.keys()]
      .filter((key) => key.startsWith(prefix) && (after === null || compareUtf8(key, after) > 0))
      .sort(compareUtf8);
    const page = matching.slice(0, maxKeys);
    const truncated = maxKeys > 0 && matching.length > page.length;
    const lastKey = page.at(-1);
    const text = (value: string) => escapeXml(urlEncode ? encodeURIComponent(value) : value);

    const contents = page.map((key) => {
      const object = objects.get(key)!;
      return (
        `<Contents><Key>${text(key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified>` +
        `<ETag>${escapeXml(object.etag)}</ETag><Size>${object.data.length}</Size>` +
        '<StorageClass>STANDARD</StorageClass></Contents>'
      );
    });
    return (
      `${xmlHeader}<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
      `<Name>${escapeXml(bucket)}</Name><Prefix>${text(prefix)}</Prefix>` +
      `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
      (urlEncode ? '<EncodingType>url</EncodingType>' : '') +
      (token !== null ? `<ContinuationToken>${escapeXml(token)}</ContinuationToken>` : '') +
      (startAfter !== null ? `<StartAfter>${text(startAfter)}</StartAfter>` : '') +
      (truncated && lastKey !== undefined
        ? `<NextContinuationToken>${Buffer.from(lastKey).toString('base64url')}</NextContinuationToken>`
        : '') +
      `${contents.join('')}</ListBucketResult>`
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const s3Error =
        error instanceof S3Error ? error : new S3Error(500, 'InternalError', String((error as Error)?.stack ?? error));
      if (res.headersSent) return void res.destroy();
      if (req.method === 'HEAD') return void res.writeHead(s3Error.status).end();
      const requestId = randomUUID();
      sendXml(
        res,
        s3Error.status,
        `${xmlHeader}<Error><Code>${s3Error.code}</Code><Message>${escapeXml(s3Error.message)}</Message>` +
          `<RequestId>${requestId}</RequestId></Error>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket,
    accessKeyId,
    secretAccessKey: 'fake-secret-key-not-checked',
    forcePathStyle: true,
    requests,
    objects: () => new Map([...objects].map(([key, object]) => [key, object.data])),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Accepts a SigV4 `Authorization` header or a presigned URL naming the expected access key id. */
function checkAccessKey(req: IncomingMessage, url: URL, expected: string): void {
  const fromHeader = /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '')?.[1];
  const fromQuery = url.searchParams.get('X-Amz-Credential')?.split('/')[0];
  const given = fromHeader ?? fromQuery;
  if (given === undefined) throw new S3Error(403, 'AccessDenied', 'Access Denied: the request is not signed.');
  if (given !== expected) {
    throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
}

function decodePutBody(req: IncomingMessage, raw: Buffer): { data: Buffer; trailers: Record<string, string> } {
  const contentSha256 = header(req, 'x-amz-content-sha256') ?? '';
  const encodings = (req.headers['content-encoding'] ?? '').split(',').map((part) => part.trim());
  if (!contentSha256.startsWith('STREAMING-') && !encodings.includes('aws-chunked')) {
    if (/^[0-9a-f]{64}$/.test(contentSha256) && createHash('sha256').update(raw).digest('hex') !== contentSha256) {
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 does not match.');
    }
    return { data: raw, trailers: {} };
  }
  const decoded = decodeAwsChunked(raw);
  const declaredLength = req.headers['x-amz-decoded-content-length'];
  if (declaredLength !== undefined && Number(declaredLength) !== decoded.data.length) {
    throw new S3Error(400, 'IncompleteBody', 'The decoded body length differs from x-amz-decoded-content-length.');
  }
  return decoded;
}

/**
 * Decodes an `aws-chunked` body: chunks `<hex size>[;chunk-signature=<sig>]\r\n<bytes>\r\n`, a final
 * zero-size chunk, then optional trailing headers (`x-amz-checksum-crc32:<base64>`) and a blank line.
 * Covers both STREAMING-AWS4-HMAC-SHA256-PAYLOAD and STREAMING-UNSIGNED-PAYLOAD-TRAILER.
 */
export function decodeAwsChunked(raw: Buffer): { data: Buffer; trailers: Record<string, string> } {
  const parts: Buffer[] = [];
  let position = 0;
  const readLine = (): string => {
    const end = raw.indexOf('\r\n', position);
    if (end === -1) throw new S3Error(400, 'IncompleteBody', 'The aws-chunked body ends in the middle of a line.');
    const line = raw.subarray(position, end).toString('latin1');
    position = end + 2;
    return line;
  };
  for (;;) {
    const sizeText = readLine().split(';')[0] ?? '';
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) {
      throw new S3Error(400, 'InvalidChunkSizeError', `Invalid aws-chunked chunk size "${sizeText}".`);
    }
    const size = Number.parseInt(sizeText, 16);
    if (size === 0) break;
    if (position + size + 2 > raw.length || raw.toString('latin1', position + size, position + size + 2) !== '\r\n') {
      throw new S3Error(400, 'IncompleteBody', 'An aws-chunked chunk is shorter than its declared size.');
    }
    parts.push(raw.subarray(position, position + size));
    position += size + 2;
  }
  const trailers: Record<string, string> = {};
  while (position < raw.length) {
    const line = readLine();
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { data: Buffer.concat(parts), trailers };
}

function pickChecksumHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('x-amz-checksum-') && name !== 'x-amz-checksum-algorithm' && typeof value === 'string') {
      picked[name] = value;
    }
  }
  return picked;
}

/** Verifies the checksums Node can compute; others (CRC32C, CRC64NVME) are accepted unchecked. */
function verifyChecksums(data: Buffer, checksums: Record<string, string>, contentMd5: string | undefined): void {
  const computers: Record<string, () => string> = {
    'x-amz-checksum-crc32': () => {
      const digest = Buffer.alloc(4);
      digest.writeUInt32BE(crc32(data));
      return digest.toString('base64');
    },
    'x-amz-checksum-sha1': () => createHash('sha1').update(data).digest('base64'),
    'x-amz-checksum-sha256': () => createHash('sha256').update(data).digest('base64'),
  };
  for (const [name, compute] of Object.entries(computers)) {
    const given = checksums[name];
    if (given !== undefined && given !== compute()) {
      throw new S3Error(400, 'BadDigest', `The ${name} you specified did not match the calculated checksum.`);
    }
  }
  if (contentMd5 !== undefined && contentMd5 !== createHash('md5').update(data).digest('base64')) {
    throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  }
}

/** One `bytes=` range as S3 reads it; a malformed or multi-range header is ignored (whole object). */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

function sendXml(res: ServerResponse, status: number, xml: string): void {
  const body = Buffer.from(xml);
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': body.length }).end(body);
}

function escapeXml(value: string): string {
  const entities: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };
  return value.replace(/[<>&"']/g, (char) => entities[char]!);
}

/** S3 orders keys by their UTF-8 bytes, which differs from JavaScript's UTF-16 order beyond the BMP. */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
