import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertWellFormedRange, type ByteRange, RangeNotSatisfiableError } from './byte-range.ts';
import type { ListedObject, MediaStorage, StoredObjectInfo, StoredObjectStream } from './media-storage.ts';
import { assertValidStorageKey, assertValidStoragePrefix } from './storage-key.ts';

/** From S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE. */
export interface S3StorageConfig {
  /** Omit (or null) for AWS itself; set for MinIO, R2, Scaleway and other S3-compatible services. */
  endpoint?: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key`; most self-hosted services need it. */
  forcePathStyle: boolean;
}

/** Objects in an S3-compatible bucket; keys are used as they are, with no prefix added. */
export class S3Storage implements MediaStorage {
  readonly bucket: string;
  readonly #client: S3Client;

  constructor(config: S3StorageConfig, client?: S3Client) {
    this.bucket = config.bucket;
    this.#client =
      client ??
      new S3Client({
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    assertValidStorageKey(key);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: data,
        ContentType: contentType,
        ContentLength: data.length,
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    assertValidStorageKey(key);
    try {
      const response = await this.#client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (response.Body === undefined) throw new Error(`S3 answered no body for ${key}`);
      const bytes = await response.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<StoredObjectStream | null> {
    assertValidStorageKey(key);
    if (range) assertWellFormedRange(range);
    let response: GetObjectCommandOutput;
    try {
      response = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
    } catch (error) {
      if (isNotFound(error)) return null;
      if (range && httpStatusOf(error) === 416) {
        const info = await this.stat(key);
        if (!info) return null;
        throw new RangeNotSatisfiableError(range, info.size);
      }
      throw error;
    }
    if (!(response.Body instanceof Readable)) throw new Error('S3 GetObject returned a body that is not a Node stream');
    if (!range) return { stream: response.Body, size: response.ContentLength ?? 0 };
    const served = parseContentRange(response.ContentRange);
    if (!served) {
      response.Body.destroy();
      throw new Error(`S3 answered a ranged GetObject for ${key} without Content-Range`);
    }
    return { stream: response.Body, size: served.size, range: { start: served.start, end: served.end } };
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    assertValidStorageKey(key);
    try {
      const response = await this.#client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: response.ContentLength ?? 0, modifiedAt: response.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertValidStorageKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidStoragePrefix(prefix);
    let continuationToken: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: continuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  /** Closes the client's idle connections; call it when shutting down. */
  destroy(): void {
    this.#client.destroy();
  }
}

function httpStatusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/**
 * GetObject answers NoSuchKey; HeadObject, which has no body, a bare 404 the SDK names NotFound.
 * Other 404s (NoSuchBucket) are configuration errors and must not read as a missing object.
 */
function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

function parseContentRange(header: string | undefined): { start: number; end: number; size: number } | null {
  const match = header ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header) : null;
  if (!match) return null;
  return { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) };
}
