import type { Readable } from 'node:stream';
import type { ByteRange } from './byte-range.ts';

export interface StoredObjectInfo {
  size: number;
  modifiedAt: Date;
}

export interface ListedObject extends StoredObjectInfo {
  key: string;
}

export interface StoredObjectStream {
  stream: Readable;
  /** Size of the whole object, for `Content-Range: bytes start-end/size`. */
  size: number;
  /** The bytes the stream carries (inclusive), clamped to the object; present when a range was asked. */
  range?: ByteRange;
}

/**
 * Blobs (originals and their variants) addressed by relative keys such as `originals/ab/cd/<hex>.jpg`.
 * Every method refuses an unsafe key with InvalidStorageKeyError (see storage-key.ts).
 */
export interface MediaStorage {
  /** Atomic: a reader sees the previous object or the whole new one, never part of it. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** null when no object has this key. */
  get(key: string): Promise<Buffer | null>;
  /**
   * null when no object has this key. With a range, streams only those bytes; a range starting past
   * the end throws RangeNotSatisfiableError (which carries the object's size).
   */
  getStream(key: string, range?: ByteRange): Promise<StoredObjectStream | null>;
  stat(key: string): Promise<StoredObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Succeeds whether or not the object exists. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in ascending key order. */
  list(prefix: string): AsyncIterable<ListedObject>;
}
