/** The rules of bookmarks: one per user and media, optionally in one of the user's collections. */
import type { Clock } from '../../platform/clock.ts';
import { isForeignKeyViolation } from '../../platform/db/errors.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { MediaService } from '../media/public.ts';
import './events.ts';
import type { BookmarksRepository, CollectionFilter } from './bookmarks.repository.ts';
import type { CollectionsService } from './collections.service.ts';
import type { BookmarkRow } from './tables.ts';

/** What a PUT did: a new bookmark, a bookmark moved to another collection (or out), or nothing. */
export type BookmarkChange = 'created' | 'moved' | 'unchanged';

const mediaNotFound = () =>
  new AppError('notFound', { source: { parameter: 'mediaId' }, detail: 'no such media, or not visible to you' });
const collectionNotFound = () =>
  new AppError('notFound', { source: { pointer: '/collectionId' }, detail: 'no such collection of yours' });

export interface BookmarksServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: BookmarksRepository;
  collections: CollectionsService;
  media: MediaService;
  clock: Clock;
}

export class BookmarksService {
  readonly #deps: BookmarksServiceDeps;

  constructor(deps: BookmarksServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Bookmarks a media the viewer can see. `collectionId`: a collection of theirs, null for none, or
   * undefined to keep where an existing bookmark is (none for a new one).
   */
  async put(
    viewerId: string,
    mediaId: string,
    collectionId: string | null | undefined,
  ): Promise<{ bookmark: BookmarkRow; change: BookmarkChange; bookmarksCount: number }> {
    const target = await this.#deps.media.findVisibleMedia(mediaId, viewerId);
    if (target === null) throw mediaNotFound();
    if (typeof collectionId === 'string')
      await this.#deps.collections.requireOwn(viewerId, collectionId, { pointer: '/collectionId' });
    try {
      return await this.#deps.transactions.run(async () => {
        // A new bookmark moves the viewer's curator badge (bookmark.created), so it locks the viewer too.
        if ((await this.#deps.media.lockForWrite(target.id, [viewerId])) === null) throw mediaNotFound();
        const now = this.#deps.clock.now();
        const existing = await this.#deps.repository.find(viewerId, target.id);
        let bookmark: BookmarkRow;
        let change: BookmarkChange;
        if (existing === null) {
          const row = {
            id: newId(),
            userId: viewerId,
            mediaId: target.id,
            collectionId: collectionId ?? null,
            createdAt: now,
            updatedAt: now,
          };
          bookmark = await this.#deps.repository.insert(row);
          await this.#deps.media.adjustCounters(target.id, { bookmarks: 1 });
          await this.#deps.events.publish('bookmark.created', {
            userId: viewerId,
            mediaId: target.id,
            bookmarksSaved: await this.#deps.repository.countOfUser(viewerId),
          });
          change = 'created';
        } else if (collectionId !== undefined && collectionId !== existing.collectionId) {
          bookmark = await this.#deps.repository.move(existing.id, collectionId, now);
          change = 'moved';
        } else {
          bookmark = existing;
          change = 'unchanged';
        }
        const counters = await this.#deps.media.counters(target.id);
        return { bookmark, change, bookmarksCount: counters?.bookmarksCount ?? 0 };
      });
    } catch (error) {
      // The collection was deleted between the check and the write.
      if (isForeignKeyViolation(error)) throw collectionNotFound();
      throw error;
    }
  }

  /** Removes the viewer's bookmark of a media; 404 when there is none. */
  async remove(viewerId: string, mediaId: string): Promise<void> {
    const removed = await this.#deps.transactions.run(async () => {
      if ((await this.#deps.media.lockForWrite(mediaId, [])) === null) return false;
      if (!(await this.#deps.repository.delete(viewerId, mediaId))) return false;
      await this.#deps.media.adjustCounters(mediaId, { bookmarks: -1 });
      return true;
    });
    if (!removed)
      throw new AppError('notFound', {
        source: { parameter: 'mediaId' },
        detail: 'you have not bookmarked this media',
      });
  }

  /** The viewer's bookmarks, newest first, on media they can still open. */
  async list(viewerId: string, filter: CollectionFilter, page: PageRequest) {
    if (filter.kind === 'in') await this.#deps.collections.requireOwn(viewerId, filter.collectionId);
    return this.#deps.repository.list(viewerId, filter, page);
  }
}
