/**
 * All SQL of bookmarks. Writers lock the media row first (MediaService.lockForCounters, in their
 * transaction), so the bookmarks of one media change one at a time and media.bookmarks_count moves
 * with them exactly.
 */
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { keyset, type PageRequest } from '../../platform/http/pagination.ts';
import { type MediaRow, media } from '../media/tables.ts';
import { type BookmarkRow, bookmarks } from './tables.ts';

/** Which bookmarks a list shows: all, those outside any collection, or those of one collection. */
export type CollectionFilter = { kind: 'all' } | { kind: 'none' } | { kind: 'in'; collectionId: string };

export interface BookmarkedMedia {
  media: MediaRow;
  bookmark: BookmarkRow;
}

export class BookmarksRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async find(userId: string, mediaId: string, db: Db = this.db): Promise<BookmarkRow | null> {
    const [row] = await db
      .select()
      .from(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.mediaId, mediaId)));
    return row ?? null;
  }

  /** Inserts a bookmark and counts it on the media (media locked). */
  async insert(row: BookmarkRow, db: Db): Promise<BookmarkRow> {
    const [inserted] = await db.insert(bookmarks).values(row).returning();
    await db
      .update(media)
      .set({ bookmarksCount: sql`${media.bookmarksCount} + 1` })
      .where(eq(media.id, row.mediaId));
    return inserted!;
  }

  async move(id: string, collectionId: string | null, at: Date, db: Db): Promise<BookmarkRow> {
    const [moved] = await db
      .update(bookmarks)
      .set({ collectionId, updatedAt: at })
      .where(eq(bookmarks.id, id))
      .returning();
    return moved!;
  }

  /** Deletes a bookmark and uncounts it (media locked); false when there was none. */
  async delete(userId: string, mediaId: string, db: Db): Promise<boolean> {
    const deleted = await db
      .delete(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.mediaId, mediaId)))
      .returning({ id: bookmarks.id });
    if (deleted.length === 0) return false;
    await db
      .update(media)
      .set({ bookmarksCount: sql`${media.bookmarksCount} - 1` })
      .where(eq(media.id, mediaId));
    return true;
  }

  async mediaBookmarksCount(mediaId: string, db: Db): Promise<number> {
    const [row] = await db.select({ count: media.bookmarksCount }).from(media).where(eq(media.id, mediaId));
    return row?.count ?? 0;
  }

  /** A user's bookmarks, newest first, with their media, among the media `visible` allows. */
  async list(userId: string, filter: CollectionFilter, visible: SQL, page: PageRequest): Promise<BookmarkedMedia[]> {
    const { where, orderBy } = keyset([bookmarks.createdAt, bookmarks.id], page);
    const inCollection =
      filter.kind === 'none'
        ? isNull(bookmarks.collectionId)
        : filter.kind === 'in'
          ? eq(bookmarks.collectionId, filter.collectionId)
          : undefined;
    return this.db
      .select({ media, bookmark: bookmarks })
      .from(bookmarks)
      .innerJoin(media, eq(media.id, bookmarks.mediaId))
      .where(and(eq(bookmarks.userId, userId), inCollection, visible, where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }
}
