/**
 * Uploads: the bytes are checked (probeImage), EXIF position and time read, the original stored, and
 * the row written. The file is written first and removed again if the row cannot be, so a failed
 * upload leaves neither. An avatar or cover replaces the previous one: its row goes in the same
 * transaction, its files right after.
 *
 * What is stored is the image's own data: bytes after its end (after a JPEG's end marker, say) are
 * dropped before anything else (image-data-end.ts), so hash, size and quota count the image alone.
 * A user's originals together stay within MEDIA_QUOTA_MB (413 mediaQuotaExceeded), checked under the
 * owner's lock so parallel uploads cannot pass it together.
 */
import {
  imageContentTypes,
  imageFileExtensions,
  probeImage,
  readExif,
  sha256Hex,
  withoutTrailingBytes,
} from '../../adapters/images/index.ts';
import type { MediaStorage } from '../../adapters/storage/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId, toHex } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import type { GeographyService } from '../geography/public.ts';
import './events.ts';
import { extractHashtags } from '../../platform/text/hashtags.ts';
import { type ContentWarningRequest, checkedContentWarning, noContentWarning } from './content-warnings.ts';
import { imageErrorToAppError } from './image-errors-to-http.ts';
import type { MediaRepository } from './media.repository.ts';
import { MediaDeletion } from './media-deletion.ts';
import { deleteMediaFiles } from './media-files.ts';
import { originalKey } from './media-storage-keys.ts';
import type { MediaKind, MediaRow } from './tables.ts';

export interface UploadInput {
  data: Buffer;
  description?: string;
  /** Overrides the owner's publishLocationByDefault setting for this media. */
  locationPublic?: boolean;
  /** The author's content warning (content-warnings.ts); none when absent. */
  contentWarning?: ContentWarningRequest;
}

export interface MediaUploadServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: MediaRepository;
  users: UsersService;
  storage: MediaStorage;
  clock: Clock;
  geography: GeographyService;
  /** Bytes of originals one user may keep; null: no quota. */
  quotaBytes: number | null;
}

export class MediaUploadService {
  readonly #deps: MediaUploadServiceDeps;

  readonly #deletion: MediaDeletion;

  constructor(deps: MediaUploadServiceDeps) {
    this.#deps = deps;
    this.#deletion = new MediaDeletion(deps);
  }

  async upload(ownerId: string, kind: MediaKind, input: UploadInput): Promise<MediaRow> {
    // Checked before the image, so a refused warning costs no decoding and stores nothing.
    const warning = input.contentWarning === undefined ? noContentWarning : checkedContentWarning(input.contentWarning);
    if (input.data.length === 0) {
      throw new AppError('fileMissing', { source: { pointer: '/file' }, detail: 'the file is empty' });
    }
    const data = withoutTrailingBytes(input.data);
    const probe = await probeImage(data).catch((error) => {
      throw imageErrorToAppError(error);
    });
    const exif = await readExif(data);
    const owner = await this.#deps.users.find(ownerId);
    if (owner === null) throw new AppError('notFound');

    const id = newId();
    const key = originalKey(toHex(id), imageFileExtensions[probe.format]);
    const now = this.#deps.clock.now();
    const description = input.description?.trim() || null;
    const { latitude, longitude } = exif;
    const positioned = latitude !== null && longitude !== null;
    const place = positioned ? await this.#deps.geography.nearestCity(latitude, longitude) : null;
    const row = {
      id,
      ownerId,
      kind,
      // Posts wait for a generated description unless their owner wrote one; profile images never do.
      describeStatus: kind === 'post' && description === null ? ('pending' as const) : ('skipped' as const),
      description,
      hashtags: description === null ? [] : extractHashtags(description),
      ...warning,
      originalKey: key,
      originalFormat: probe.format,
      byteSize: data.length,
      width: probe.width,
      height: probe.height,
      contentHash: sha256Hex(data),
      latitude: exif.latitude,
      longitude: exif.longitude,
      locationPublic: input.locationPublic ?? owner.settings.publishLocationByDefault ?? true,
      takenAt: exif.takenAt,
      // The nearest city within geography's radius; none at sea (geocodedAt tells the backfill it was tried).
      cityId: place?.id ?? null,
      countryCode: place?.countryCode ?? null,
      geocodedAt: positioned ? now : null,
      createdAt: now,
      updatedAt: now,
    };

    // A post is checked first without the lock, so a user over the quota costs no write to storage;
    // every upload is checked under the lock below (an avatar or cover once the one it replaces is gone).
    if (kind === 'post') await this.checkQuota(ownerId, data.length);
    await this.#deps.storage.put(key, data, imageContentTypes[probe.format]);
    let replaced: MediaRow[] = [];
    let inserted: MediaRow;
    try {
      inserted = await this.#deps.transactions.run(async () => {
        // The owner's lock first (the users lock order), so two avatar uploads replace one another in turn.
        if ((await this.#deps.users.lock(ownerId)) === null) throw new AppError('notFound');
        if (kind !== 'post') {
          replaced = await this.#deps.repository.profileImagesForUpdate(ownerId, kind);
          for (const previous of replaced) await this.#deps.repository.delete(previous.id);
        }
        await this.checkQuota(ownerId, row.byteSize);
        const created = await this.#deps.repository.insert(row);
        if (kind !== 'post') await this.#deps.users.setProfileImage(ownerId, kind, created.id);
        if (kind === 'post' && created.published) {
          const publishedCount = await this.#deps.repository.countPublishedPosts(ownerId);
          await this.#deps.events.publish('media.published', { media: created, publishedCount });
        }
        return created;
      });
    } catch (error) {
      await this.#deps.storage.delete(key);
      throw error;
    }
    // The rows are gone; a file left behind by a failure here is removed by cleanup-orphan-files.
    for (const previous of replaced) await deleteMediaFiles(this.#deps.storage, previous).catch(() => undefined);
    return inserted;
  }

  /** 413 mediaQuotaExceeded when the user's originals and this file would pass the quota. */
  private async checkQuota(ownerId: string, fileBytes: number): Promise<void> {
    if (this.#deps.quotaBytes === null) return;
    const usedBytes = await this.#deps.repository.storedBytesOf(ownerId);
    if (usedBytes + fileBytes <= this.#deps.quotaBytes) return;
    throw new AppError('mediaQuotaExceeded', {
      source: { pointer: '/file' },
      detail: `${usedBytes} bytes stored, ${fileBytes} more would pass the quota of ${this.#deps.quotaBytes}`,
      values: { quotaMegabytes: Math.floor(this.#deps.quotaBytes / 1024 / 1024) },
      meta: { quotaBytes: this.#deps.quotaBytes, usedBytes, fileBytes },
    });
  }

  /** Removes the avatar or cover; false when there was none. */
  async removeProfileImage(ownerId: string, kind: 'avatar' | 'cover'): Promise<boolean> {
    const removed = await this.#deps.transactions.run(async () => {
      await this.#deps.users.lock(ownerId);
      const rows = await this.#deps.repository.profileImagesForUpdate(ownerId, kind);
      for (const row of rows) await this.#deps.repository.delete(row.id);
      await this.#deps.users.setProfileImage(ownerId, kind, null);
      return rows;
    });
    for (const row of removed) await deleteMediaFiles(this.#deps.storage, row).catch(() => undefined);
    return removed.length > 0;
  }

  /** Deletes a media (row, then files), as an operator's delete does (media-deletion.ts); null when it does not exist. */
  deleteMedia(id: string): Promise<MediaRow | null> {
    return this.#deletion.one(id);
  }
}
