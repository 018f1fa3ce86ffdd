/** All SQL of bookmark collections. */
import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { bookmarkCollections, bookmarks, type CollectionRow } from './tables.ts';

export type CollectionWithCount = CollectionRow & { bookmarksCount: number };

/** The unique index that makes names unique per user whatever their case. */
export const collectionNameIndex = 'bookmark_collections_user_name';

const saved = alias(bookmarks, 'b');
// A statement of its own inside the field: Drizzle leaves the columns at a select field's top level unqualified.
const bookmarksCount = sql`(SELECT count(*)::int FROM ${bookmarks} AS ${saved} WHERE ${saved.collectionId} = ${bookmarkCollections.id})`;

const withCount = {
  ...getTableColumns(bookmarkCollections),
  bookmarksCount: sql<number>`${bookmarksCount}`,
};

/** My collections, newest first. */
export const collectionsKeyset = newestFirst<CollectionWithCount>('bookmark-collections', bookmarkCollections);

export class CollectionsRepository extends Repository {
  async insert(row: CollectionRow): Promise<CollectionWithCount> {
    const [inserted] = await this.db.insert(bookmarkCollections).values(row).returning();
    return { ...returned(inserted, 'bookmark_collections.insert'), bookmarksCount: 0 };
  }

  async countOfUser(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(bookmarkCollections)
      .where(eq(bookmarkCollections.userId, userId));
    return row?.count ?? 0;
  }

  async find(userId: string, id: string): Promise<CollectionWithCount | null> {
    const [row] = await this.db
      .select(withCount)
      .from(bookmarkCollections)
      .where(and(eq(bookmarkCollections.userId, userId), eq(bookmarkCollections.id, id)));
    return row ?? null;
  }

  async rename(userId: string, id: string, name: string, at: Date): Promise<boolean> {
    const renamed = await this.db
      .update(bookmarkCollections)
      .set({ name, updatedAt: at })
      .where(and(eq(bookmarkCollections.userId, userId), eq(bookmarkCollections.id, id)))
      .returning({ id: bookmarkCollections.id });
    return renamed.length > 0;
  }

  /** Deletes a collection; its bookmarks stay, outside any collection (ON DELETE SET NULL). */
  async delete(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(bookmarkCollections)
      .where(and(eq(bookmarkCollections.userId, userId), eq(bookmarkCollections.id, id)))
      .returning({ id: bookmarkCollections.id });
    return deleted.length > 0;
  }

  async list(userId: string, page: PageRequest): Promise<CollectionWithCount[]> {
    const { where, orderBy } = keyset(collectionsKeyset, page);
    return this.db
      .select(withCount)
      .from(bookmarkCollections)
      .where(and(eq(bookmarkCollections.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** The data export's bookmark collections of a user, in keyset batches by id. */
  async exportRows(userId: string, after: string | null, limit: number): Promise<CollectionRow[]> {
    return this.db
      .select()
      .from(bookmarkCollections)
      .where(
        and(eq(bookmarkCollections.userId, userId), after === null ? undefined : gt(bookmarkCollections.id, after)),
      )
      .orderBy(bookmarkCollections.id)
      .limit(limit);
  }
}
