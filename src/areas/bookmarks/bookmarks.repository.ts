/**
 * All SQL of bookmarks. Writers lock the media row first (MediaService.lockForCounters, in their
 * transaction), so the bookmarks of one media change one at a time and media.bookmarks_count (moved
 * through MediaService.adjustCounters) follows them exactly. Lists read media through its read model.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { byKey, PreparedPage } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { type ListedMedia, listedMediaColumns, mediaRows as media, mediaVisibleTo } from '../media/read-model.ts';
import { type BookmarkRow, bookmarkCollections, bookmarks } from './tables.ts';

/** Which bookmarks a list shows: all, those outside any collection, or those of one collection. */
export type CollectionFilter = { kind: 'all' } | { kind: 'none' } | { kind: 'in'; collectionId: string };

export interface BookmarkedMedia {
  media: ListedMedia;
  bookmark: BookmarkRow;
}

/** My bookmarks, newest bookmark first. */
export const bookmarksKeyset = defineKeyset<BookmarkedMedia>({
  name: 'bookmarks',
  shape: ['timestamp', 'uuid'],
  columns: [bookmarks.createdAt, bookmarks.id],
  keyOf: (row) => [row.bookmark.createdAt, row.bookmark.id],
});

export class BookmarksRepository extends Repository {
  async find(userId: string, mediaId: string): Promise<BookmarkRow | null> {
    const [row] = await this.db
      .select()
      .from(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.mediaId, mediaId)));
    return row ?? null;
  }

  /** Inserts a bookmark (media locked: the service moves its counter). */
  async insert(row: BookmarkRow): Promise<BookmarkRow> {
    const [inserted] = await this.db.insert(bookmarks).values(row).returning();
    return returned(inserted, 'bookmarks.insert');
  }

  async move(id: string, collectionId: string | null, at: Date): Promise<BookmarkRow> {
    const [moved] = await this.db
      .update(bookmarks)
      .set({ collectionId, updatedAt: at })
      .where(eq(bookmarks.id, id))
      .returning();
    return returned(moved, 'bookmarks.move');
  }

  /** Deletes a bookmark (media locked: the service moves its counter); false when there was none. */
  async delete(userId: string, mediaId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.mediaId, mediaId)))
      .returning({ id: bookmarks.id });
    return deleted.length > 0;
  }

  /**
   * An erased account (`user.erasing`): its bookmarks and collections. Returns the media that lost a
   * bookmark (in id order), for the caller to move their counters with each media locked.
   */
  async eraseUser(userId: string): Promise<string[]> {
    const gone = await this.db
      .delete(bookmarks)
      .where(eq(bookmarks.userId, userId))
      .returning({ mediaId: bookmarks.mediaId });
    await this.db.delete(bookmarkCollections).where(eq(bookmarkCollections.userId, userId));
    return gone.map((row) => row.mediaId).sort();
  }

  /** Bookmarks of a media counted from the rows (the admin recount). */
  async countOfMedia(mediaId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(bookmarks)
      .where(eq(bookmarks.mediaId, mediaId));
    return row?.count ?? 0;
  }

  /** How many bookmarks a user has (the curator badge). */
  async countOfUser(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(bookmarks)
      .where(eq(bookmarks.userId, userId));
    return row?.count ?? 0;
  }

  /** Per collection filter, the user's bookmarks on media they can open, as prepared pages. */
  readonly #pages = byKey(['all', 'none', 'in'] as const, (kind) => {
    const inCollection =
      kind === 'none'
        ? isNull(bookmarks.collectionId)
        : kind === 'in'
          ? eq(bookmarks.collectionId, sql.placeholder('collectionId'))
          : undefined;
    return new PreparedPage<BookmarkedMedia>(
      this.source,
      `bookmarks.list.${kind}`,
      bookmarksKeyset,
      (db, where, orderBy) =>
        db
          .select({ media: listedMediaColumns, bookmark: bookmarks })
          .from(bookmarks)
          .innerJoin(media, eq(media.id, bookmarks.mediaId))
          .where(
            and(
              eq(bookmarks.userId, sql.placeholder('userId')),
              inCollection,
              mediaVisibleTo(sql.placeholder('userId')),
              where,
            ),
          )
          .orderBy(...orderBy),
    );
  });

  /** A user's bookmarks, newest first, with their media, among the media they can open. */
  list(userId: string, filter: CollectionFilter, page: PageRequest): Promise<BookmarkedMedia[]> {
    const collectionId = filter.kind === 'in' ? filter.collectionId : null;
    return this.#pages[filter.kind].run(page, { userId, collectionId });
  }

  /** The data export's bookmarks of a user, in keyset batches by id. */
  async exportRows(userId: string, after: string | null, limit: number): Promise<BookmarkRow[]> {
    return this.db
      .select()
      .from(bookmarks)
      .where(and(eq(bookmarks.userId, userId), after === null ? undefined : gt(bookmarks.id, after)))
      .orderBy(bookmarks.id)
      .limit(limit);
  }
}
