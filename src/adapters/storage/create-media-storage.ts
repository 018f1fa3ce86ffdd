import { LocalStorage } from './local-storage.ts';
import type { MediaStorage } from './media-storage.ts';
import type { S3StorageConfig } from './s3-storage.ts';

export interface MediaStorageConfig {
  /** Where LocalStorage keeps files, normally `join(DATA_DIR, 'media')`. */
  localRoot: string;
  /** The S3 settings, or null when S3_BUCKET is not set. */
  s3: S3StorageConfig | null;
}

/** S3 when a bucket is configured (the AWS SDK is loaded only then), local files otherwise. */
export async function createMediaStorage(config: MediaStorageConfig): Promise<MediaStorage> {
  if (config.s3 && config.s3.bucket !== '') {
    const { S3Storage } = await import('./s3-storage.ts');
    return new S3Storage(config.s3);
  }
  return new LocalStorage(config.localRoot);
}
