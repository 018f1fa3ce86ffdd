/**
 * Served files: every variant (format x size) is rendered once from the original with sharp (EXIF
 * and other metadata stripped, see renderVariant) and kept in storage; later requests read the
 * cached file. Concurrent first requests for one variant share a single render.
 */
import {
  renderVariant,
  type VariantFormat,
  type VariantSize,
  variantContentTypes,
} from '../../adapters/images/index.ts';
import type { ByteRange, MediaStorage, StoredObjectInfo } from '../../adapters/storage/index.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { toHex } from '../../platform/http/ids.ts';
import { variantKey } from './media-storage-keys.ts';
import type { MediaRow } from './tables.ts';

/** Bumped if rendering settings change, so clients do not keep an old variant under the same ETag. */
const renderVersion = 'v1';

export interface ServableVariant {
  key: string;
  contentType: string;
  etag: string;
  info: StoredObjectInfo;
}

export class MediaVariantService {
  readonly #rendering = new Map<string, Promise<void>>();
  /** Size and time of stored variants: a rendered variant never changes, so a stat is asked once. */
  readonly #files: TtlCache<string, StoredObjectInfo>;

  private readonly storage: MediaStorage;

  constructor(storage: MediaStorage, clock: Clock) {
    this.storage = storage;
    this.#files = new TtlCache(clock, 3_600_000, 50_000);
  }

  /** A strong validator: the original's hash and the variant asked for determine the bytes. */
  etagOf(row: Pick<MediaRow, 'contentHash'>, size: VariantSize, format: VariantFormat): string {
    return `"${row.contentHash.slice(0, 32)}-${size}-${format}-${renderVersion}"`;
  }

  /** The stored variant, rendered first if needed; null when the original is missing from storage. */
  async ensure(row: MediaRow, size: VariantSize, format: VariantFormat): Promise<ServableVariant | null> {
    const key = variantKey(toHex(row.id), size, format);
    let info = this.#files.get(key) ?? (await this.storage.stat(key));
    if (info === null) {
      let rendering = this.#rendering.get(key);
      if (!rendering) {
        rendering = this.render(row, key, size, format).finally(() => this.#rendering.delete(key));
        this.#rendering.set(key, rendering);
      }
      await rendering;
      info = await this.storage.stat(key);
      if (info === null) return null;
    }
    this.#files.set(key, info);
    return { key, contentType: variantContentTypes[format], etag: this.etagOf(row, size, format), info };
  }

  async read(
    row: MediaRow,
    size: VariantSize,
    format: VariantFormat,
  ): Promise<{ data: Buffer; contentType: string } | null> {
    const variant = await this.ensure(row, size, format);
    if (variant === null) return null;
    const data = await this.storage.get(variant.key);
    return data === null ? null : { data, contentType: variant.contentType };
  }

  /** A stream of a stored variant (or of part of it); null when it is gone from storage. */
  async open(key: string, range?: ByteRange) {
    const stored = await this.storage.getStream(key, range);
    if (stored === null) this.#files.delete(key);
    return stored;
  }

  private async render(row: MediaRow, key: string, size: VariantSize, format: VariantFormat): Promise<void> {
    const original = await this.storage.get(row.originalKey);
    if (original === null) return;
    const rendered = await renderVariant(original, { format, size });
    await this.storage.put(key, rendered.data, rendered.contentType);
  }
}
