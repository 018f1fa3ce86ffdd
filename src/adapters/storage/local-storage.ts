import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type ByteRange, clampRange } from './byte-range.ts';
import type { ListedObject, MediaStorage, StoredObjectInfo, StoredObjectStream } from './media-storage.ts';
import { assertValidStorageKey, assertValidStoragePrefix, isValidKeySegment } from './storage-key.ts';

/**
 * Objects as files under a root directory (by default `DATA_DIR/media`); key `a/b/c.jpg` is the file
 * `<root>/a/b/c.jpg`. Content types are not kept: serve files with a type derived from the key's
 * extension. A key cannot be both an object and the parent of others (`a/b` and `a/b/c`).
 */
export class LocalStorage implements MediaStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, data: Buffer, _contentType: string): Promise<void> {
    const path = this.#pathOf(key);
    const directory = dirname(path);
    await mkdir(directory, { recursive: true });
    // Same directory, so the rename stays on one file system and replaces the target atomically.
    const temporary = join(directory, `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
    try {
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const path = this.#pathOf(key);
    try {
      return await readFile(path);
    } catch (error) {
      if (isNoSuchObject(error)) return null;
      throw error;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<StoredObjectStream | null> {
    const path = this.#pathOf(key);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isNoSuchObject(error)) return null;
      throw error;
    }
    let served: ByteRange | undefined;
    let size: number;
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      size = info.size;
      served = range ? clampRange(range, size) : undefined;
    } catch (error) {
      await handle.close();
      throw error;
    }
    // The stream owns the handle from here and closes it when it ends or is destroyed.
    const stream = handle.createReadStream(served ? { start: served.start, end: served.end } : {});
    return served ? { stream, size, range: served } : { stream, size };
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    const path = this.#pathOf(key);
    try {
      const info = await stat(path);
      return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : null;
    } catch (error) {
      if (isNoSuchObject(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const path = this.#pathOf(key);
    try {
      await unlink(path);
    } catch (error) {
      if (!isNoSuchObject(error)) throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidStoragePrefix(prefix);
    // Start in the deepest directory the prefix names completely: `originals/ab/c` -> `originals/ab/`.
    yield* this.#walk(prefix.slice(0, prefix.lastIndexOf('/') + 1), prefix);
  }

  /** Depth-first, children sorted by key (directories as `name/`), which yields keys in ascending order. */
  async *#walk(directoryKey: string, prefix: string): AsyncGenerator<ListedObject> {
    let entries: Dirent[];
    try {
      entries = await readdir(join(this.root, directoryKey), { withFileTypes: true });
    } catch (error) {
      if (isNoSuchObject(error)) return;
      throw error;
    }
    // Temporary files start with a dot and fail the segment rule; symbolic links are never followed.
    const children = entries
      .filter((entry) => isValidKeySegment(entry.name) && (entry.isFile() || entry.isDirectory()))
      .map((entry) => ({ key: directoryKey + entry.name + (entry.isDirectory() ? '/' : ''), isFile: entry.isFile() }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const child of children) {
      if (!child.isFile) {
        if (child.key.startsWith(prefix) || prefix.startsWith(child.key)) yield* this.#walk(child.key, prefix);
        continue;
      }
      if (!child.key.startsWith(prefix)) continue;
      const info = await this.stat(child.key);
      if (info) yield { key: child.key, ...info };
    }
  }

  #pathOf(key: string): string {
    assertValidStorageKey(key);
    return join(this.root, ...key.split('/'));
  }
}

/** The errors that mean "no object has this key" (a missing file or directory, or a directory in its place). */
function isNoSuchObject(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
