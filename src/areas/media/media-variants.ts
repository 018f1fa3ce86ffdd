/**
 * Served files: every variant (format x size) is rendered once from the original with sharp (EXIF
 * and other metadata stripped, see renderVariant) and kept in storage; later requests read the
 * cached file. Renders go through the bounded render queue (render-queue.ts): the common variants
 * are rendered by the media-variants job after upload (media-variants.job.ts); a reader asking for
 * another one not stored yet is counted against its IP's render limit, waits for the render at most
 * MEDIA_RENDER_WAIT_MS, and is answered 503 variantNotReady with Retry-After after that. Concurrent
 * first requests for one variant share a single render.
 */
import { createHmac } from 'node:crypto';
import {
  renderVariant,
  type VariantFormat,
  type VariantSize,
  variantContentTypes,
} from '../../adapters/images/index.ts';
import type { ByteRange, MediaStorage, StoredObjectInfo } from '../../adapters/storage/index.ts';
import type { Purgeable } from '../../platform/cache/cache-registry.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { within } from '../../platform/concurrency/within.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { toHex } from '../../platform/ids/ids.ts';
import { variantKey } from './media-storage-keys.ts';
import { RenderNotQueuedError, type RenderQueue, type RenderQueueCounters } from './render-queue.ts';
import type { RenderRateLimit } from './render-rate-limit.ts';
import type { MediaRow } from './tables.ts';

/** Bumped if rendering settings change, so clients do not keep an old variant under the same ETag. */
const renderVersion = 'v2';

/** The variants the media-variants job renders after upload: the sizes the API links, and the describe queue's JPEG. */
export const commonVariants: ReadonlyArray<{ size: VariantSize; format: VariantFormat }> = [
  { size: 'thumb', format: 'webp' },
  { size: 'small', format: 'webp' },
  { size: 'large', format: 'webp' },
  { size: 'large', format: 'jpeg' },
];

/** The Retry-After of a 503 variantNotReady: the render is kept queued for the retry. */
export const variantRetryAfterSeconds = 2;

/** How renders are bounded: the queue, a reader's wait, the per-IP limit. */
export interface VariantRenders {
  queue: RenderQueue;
  waitMs: number;
  rateLimit: RenderRateLimit;
}

/** Who asks for a variant through GET /media: its IP, and a signal that aborts when its client has gone. */
export interface VariantReader {
  ip: string;
  closed?: AbortSignal;
}

export interface ServableVariant {
  key: string;
  contentType: string;
  etag: string;
  info: StoredObjectInfo;
}

export interface MediaVariantServiceDeps {
  storage: MediaStorage;
  clock: Clock;
  renders: VariantRenders;
  /** The ETags' HMAC key (MEDIA_ETAG_SECRET, else kept in DATA_DIR/secrets), read on first use: see etagOf. */
  etagKey: () => string;
}

export class MediaVariantService {
  readonly #deps: MediaVariantServiceDeps;

  /** Size and time of stored variants: a rendered variant never changes, so a stat is asked once. */
  readonly #files: TtlCache<string, StoredObjectInfo>;

  constructor(deps: MediaVariantServiceDeps) {
    this.#deps = deps;
    this.#files = new TtlCache(deps.clock, 3_600_000, 50_000);
  }

  /** The stored variants' sizes and times, for the cache registry (POST /admin/cache/purge). */
  get cache(): Purgeable {
    return this.#files;
  }

  /**
   * A strong validator: the original's hash and the variant asked for determine the bytes. The hash
   * is keyed with a server secret (HMAC-SHA-256, 128 bits shown), so the ETag does not tell whether an
   * original is a given file; the key is stable across restarts, and so are the ETags.
   */
  etagOf(row: Pick<MediaRow, 'contentHash'>, size: VariantSize, format: VariantFormat): string {
    const tag = createHmac('sha256', this.#deps.etagKey()).update(row.contentHash).digest('hex').slice(0, 32);
    return `"${tag}-${size}-${format}-${renderVersion}"`;
  }

  /** What the render queue holds and has done (running, queued, dropped...), for tests and the benchmark. */
  renderCounters(): RenderQueueCounters {
    return this.#deps.renders.queue.counters();
  }

  /** The variant if it is stored already (no render asked for); null otherwise. */
  async stored(row: MediaRow, size: VariantSize, format: VariantFormat): Promise<ServableVariant | null> {
    const key = variantKey(toHex(row.id), size, format);
    const info = this.#files.get(key) ?? (await this.#deps.storage.stat(key));
    if (info === null) return null;
    this.#files.set(key, info);
    return { key, contentType: variantContentTypes[format], etag: this.etagOf(row, size, format), info };
  }

  /**
   * For a reader of GET /media: the stored variant, else its render through the queue (counted against
   * the reader's IP, 429 past the limit), waited for at most the configured time: 503 variantNotReady
   * when it is not ready by then or the queue is full. Null when the original is missing from storage.
   */
  async ensure(
    row: MediaRow,
    size: VariantSize,
    format: VariantFormat,
    reader: VariantReader,
  ): Promise<ServableVariant | null> {
    const stored = await this.stored(row, size, format);
    if (stored !== null) return stored;
    await this.#deps.renders.rateLimit.count(reader.ip);
    const key = variantKey(toHex(row.id), size, format);
    let ticket: ReturnType<RenderQueue['forReader']>;
    try {
      ticket = this.#deps.renders.queue.forReader(key, () => this.render(row, key, size, format));
    } catch (error) {
      if (error instanceof RenderNotQueuedError) throw variantNotReady();
      throw error;
    }
    // A client that closes the connection gives up its hold: a render nobody waits for is dropped.
    const leave = () => ticket.leave();
    if (reader.closed?.aborted) leave();
    reader.closed?.addEventListener('abort', leave, { once: true });
    try {
      // False when the time runs out first; a render that failed rejects.
      const rendered = await within(
        ticket.done.then(() => true),
        this.#deps.renders.waitMs,
        false,
      );
      if (!rendered) throw variantNotReady();
    } catch (error) {
      if (error instanceof RenderNotQueuedError) throw variantNotReady();
      throw error;
    } finally {
      reader.closed?.removeEventListener('abort', leave);
    }
    return this.stored(row, size, format);
  }

  /**
   * The media-variants job: renders the common variants not stored yet, through the queue (after the
   * readers waiting there). Idempotent: a stored variant is skipped.
   */
  async renderCommon(row: MediaRow): Promise<{ rendered: number; skipped: number }> {
    const outcomes = await Promise.all(
      commonVariants.map(async ({ size, format }) => {
        if ((await this.stored(row, size, format)) !== null) return 'skipped';
        await this.renderForJob(row, size, format);
        return 'rendered';
      }),
    );
    return {
      rendered: outcomes.filter((outcome) => outcome === 'rendered').length,
      skipped: outcomes.filter((outcome) => outcome === 'skipped').length,
    };
  }

  /** A render asked for by the service itself (the job, the describe queue): through the queue, never dropped. */
  private async renderForJob(row: MediaRow, size: VariantSize, format: VariantFormat): Promise<void> {
    const key = variantKey(toHex(row.id), size, format);
    await this.#deps.renders.queue.forJob(key, () => this.render(row, key, size, format));
  }

  async read(
    row: MediaRow,
    size: VariantSize,
    format: VariantFormat,
  ): Promise<{ data: Buffer; contentType: string } | null> {
    let variant = await this.stored(row, size, format);
    if (variant === null) {
      await this.renderForJob(row, size, format);
      variant = await this.stored(row, size, format);
    }
    if (variant === null) return null;
    const data = await this.#deps.storage.get(variant.key);
    return data === null ? null : { data, contentType: variant.contentType };
  }

  /** A stream of a stored variant (or of part of it); null when it is gone from storage. */
  async open(key: string, range?: ByteRange) {
    const stored = await this.#deps.storage.getStream(key, range);
    if (stored === null) this.#files.delete(key);
    return stored;
  }

  private async render(row: MediaRow, key: string, size: VariantSize, format: VariantFormat): Promise<void> {
    // Rendered meanwhile (by another instance, or a render that just ended): nothing to do.
    if (await this.#deps.storage.exists(key)) return;
    const original = await this.#deps.storage.get(row.originalKey);
    if (original === null) return;
    const rendered = await renderVariant(original, { format, size });
    await this.#deps.storage.put(key, rendered.data, rendered.contentType);
  }
}

function variantNotReady(): AppError {
  return new AppError('variantNotReady', {
    values: { seconds: variantRetryAfterSeconds },
    headers: { 'Retry-After': String(variantRetryAfterSeconds) },
  });
}
