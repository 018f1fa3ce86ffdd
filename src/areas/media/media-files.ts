/** A media's files in storage: removal of the original and every cached variant. */
import type { MediaStorage } from '../../adapters/storage/index.ts';
import { toHex } from '../../platform/ids/ids.ts';
import { variantPrefix } from './media-storage-keys.ts';

export async function deleteMediaFiles(storage: MediaStorage, row: { id: string; originalKey: string }): Promise<void> {
  const keys = [row.originalKey];
  for await (const object of storage.list(variantPrefix(toHex(row.id)))) keys.push(object.key);
  for (const key of keys) await storage.delete(key);
}
