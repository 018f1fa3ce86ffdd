export { assertWellFormedRange, type ByteRange, clampRange, RangeNotSatisfiableError } from './byte-range.ts';
export { createMediaStorage, type MediaStorageConfig } from './create-media-storage.ts';
export { LocalStorage } from './local-storage.ts';
export type { ListedObject, MediaStorage, StoredObjectInfo, StoredObjectStream } from './media-storage.ts';
export type { S3StorageConfig } from './s3-storage.ts';
export {
  assertValidStorageKey,
  assertValidStoragePrefix,
  InvalidStorageKeyError,
  isValidKeySegment,
} from './storage-key.ts';
