/** Media moderation for operators: publication, flags, counters, deletion and the orphan-file sweep. */
import type { MediaStorage } from '../../adapters/storage/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { parseUuidOrHex } from '../../platform/http/ids.ts';
import type { MediaRepository } from '../media/media.repository.ts';
import { mediaHexOfKey, storagePrefixes } from '../media/media-storage-keys.ts';
import type { MediaUploadService } from '../media/media-upload.service.ts';
import type { MediaRow } from '../media/tables.ts';
import { recomputeMediaCounters } from './media-admin-counters.ts';

export const defaultOrphanGraceHours = 24;

export class MediaAdminService {
  private readonly repository: MediaRepository;
  private readonly uploads: MediaUploadService;
  private readonly storage: MediaStorage;
  private readonly clock: Clock;

  constructor(repository: MediaRepository, uploads: MediaUploadService, storage: MediaStorage, clock: Clock) {
    this.repository = repository;
    this.uploads = uploads;
    this.storage = storage;
    this.clock = clock;
  }

  /** Any media (post, avatar or cover); 404 when unknown. */
  async require(id: string): Promise<MediaRow> {
    const row = await this.repository.findById(id);
    if (row === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
    return row;
  }

  async setPublished(id: string, published: boolean): Promise<MediaRow> {
    await this.require(id);
    return (await this.repository.update(id, { published, updatedAt: this.clock.now() }))!;
  }

  async setFlag(id: string, flag: number): Promise<MediaRow> {
    await this.require(id);
    return (await this.repository.update(id, { flag, updatedAt: this.clock.now() }))!;
  }

  async recomputeStats(id: string): Promise<{ before: Counters; after: Counters; row: MediaRow }> {
    const before = await this.require(id);
    // The media row is locked as reactions and bookmarks lock it, so none commits between count and write.
    const row = await this.repository.db.transaction(async (tx) => {
      await this.repository.lockRow(id, tx);
      const counters = await recomputeMediaCounters(tx, id);
      return (await this.repository.update(id, { ...counters, updatedAt: this.clock.now() }, tx))!;
    });
    return { before: countersOf(before), after: countersOf(row), row };
  }

  async delete(id: string): Promise<MediaRow> {
    const row = await this.uploads.deleteMedia(id);
    if (row === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
    return row;
  }

  /** Deletes stored files whose media row is gone and that are older than the grace period. */
  async cleanupOrphanFiles(graceHours: number) {
    const cutoff = this.clock.now().getTime() - graceHours * 3_600_000;
    const removed: string[] = [];
    let scanned = 0;
    let keptYoung = 0;
    for (const prefix of storagePrefixes) {
      const batch: { key: string; id: string }[] = [];
      const flush = async () => {
        const existing = await this.repository.existingIds(batch.map((item) => item.id));
        for (const item of batch) {
          if (existing.has(item.id)) continue;
          await this.storage.delete(item.key);
          removed.push(item.key);
        }
        batch.length = 0;
      };
      for await (const object of this.storage.list(prefix)) {
        scanned += 1;
        const hex = mediaHexOfKey(object.key);
        const id = hex === null ? null : parseUuidOrHex(hex);
        if (id === null) continue; // not a file this area wrote: leave it alone
        if (object.modifiedAt.getTime() > cutoff) {
          keptYoung += 1;
          continue;
        }
        batch.push({ key: object.key, id });
        if (batch.length >= 200) await flush();
      }
      await flush();
    }
    return { scanned, removed, removedCount: removed.length, keptWithinGrace: keptYoung, graceHours };
  }
}

type Counters = Pick<MediaRow, 'likesCount' | 'dislikesCount' | 'bookmarksCount' | 'commentsCount'>;

const countersOf = (row: MediaRow): Counters => ({
  likesCount: row.likesCount,
  dislikesCount: row.dislikesCount,
  bookmarksCount: row.bookmarksCount,
  commentsCount: row.commentsCount,
});
