/**
 * Deleting media, the one way every path does it: the owner's DELETE, an operator's, an erased or
 * deleted account's. Rows in the transaction in progress, `media.deleted` for each (the search index,
 * hashtag counts, the map, gamification's take-back follow it), files once it commits (a file left
 * behind by a failure is removed by cleanup-orphan-files).
 */
import type { MediaStorage } from '../../adapters/storage/index.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import type { UsersService } from '../accounts/public.ts';
import './events.ts';
import type { MediaRepository } from './media.repository.ts';
import { deleteMediaFiles } from './media-files.ts';
import { mapPhotoOf } from './post-plan.ts';
import type { MediaRow } from './tables.ts';

export class MediaDeletion {
  readonly #transactions: Transactions;
  readonly #events: EventBus;
  readonly #repository: MediaRepository;
  readonly #users: UsersService;
  readonly #storage: MediaStorage;

  constructor(owner: {
    transactions: Transactions;
    events: EventBus;
    repository: MediaRepository;
    users: UsersService;
    storage: MediaStorage;
  }) {
    this.#transactions = owner.transactions;
    this.#events = owner.events;
    this.#repository = owner.repository;
    this.#users = owner.users;
    this.#storage = owner.storage;
  }

  /**
   * Deletes one media; null when it (or its owner) does not exist. A post's lead takes its whole
   * post with it (the members first); a member leaves its post, whose other photos close up.
   */
  async one(id: string): Promise<MediaRow | null> {
    return this.#transactions.run(async () => {
      // The owner first (the lock order): media.deleted takes back what publishing earned them.
      const found = await this.#repository.findById(id);
      if (found === null || (await this.#users.lock(found.ownerId)) === null) return null;
      const leadId = found.postId;
      if (leadId !== null && leadId !== id) await this.#repository.lockRow(leadId);
      const members = leadId === id ? await this.#repository.membersOf(id) : [];
      const gone: MediaRow[] = [];
      for (const member of members) {
        const deleted = await this.#repository.delete(member.id);
        if (deleted !== null) gone.push(deleted);
      }
      const deleted = await this.#repository.delete(id);
      if (deleted !== null) gone.push(deleted);
      if (deleted !== null && leadId !== null && leadId !== id) await this.#closeUp(leadId);
      await this.#announce(gone);
      return deleted;
    });
  }

  /** The photos left in a post after one went: positions from 0 again, and the lead's count. */
  async #closeUp(leadId: string): Promise<void> {
    const photos = await this.#repository.photosOfPosts([leadId]);
    const mapPhoto = mapPhotoOf(photos);
    for (const [position, photo] of photos.entries()) {
      const patch = {
        postPosition: position,
        mapPhoto: photo.id === mapPhoto,
        ...(photo.id === leadId ? { photosCount: photos.length } : {}),
      };
      const changed = await this.#repository.update(photo.id, patch);
      // The lead's count, and the map's photo when the one that went stood for the post there.
      if (changed !== null && (photo.id === leadId || photo.mapPhoto !== changed.mapPhoto))
        await this.#events.publish('media.changed', { media: changed });
    }
  }

  /** Deletes every media of an owner (an erased or deleted account), the owner already locked. */
  async allOf(ownerId: string): Promise<MediaRow[]> {
    return this.#transactions.run(async () => {
      const rows = await this.#repository.deleteAllOfOwner(ownerId);
      await this.#announce(rows);
      return rows;
    });
  }

  async #announce(rows: MediaRow[]): Promise<void> {
    for (const row of rows) await this.#events.publish('media.deleted', { media: row });
    await this.#transactions.afterCommit(async () => {
      for (const row of rows) await deleteMediaFiles(this.#storage, row).catch(() => undefined);
    });
  }
}
