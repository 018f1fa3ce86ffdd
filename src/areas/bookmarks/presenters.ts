import { Type } from 'typebox';
import {
  Nullable,
  RelationshipSchema,
  ResourceSchema,
  relation,
  resource,
  Timestamp,
} from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { MediaSchema, presentMedia } from '../media/public.ts';
import type { BookmarkedMedia } from './bookmarks.repository.ts';
import type { CollectionWithCount } from './collections.repository.ts';
import type { BookmarkRow } from './tables.ts';

export const CollectionSchema = ResourceSchema(
  'bookmarkCollections',
  Type.Object({
    name: Type.String(),
    bookmarksCount: Type.Integer({ description: 'bookmarks in this collection, visible media or not' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  undefined,
  'BookmarkCollection',
);

export function presentCollection(row: CollectionWithCount) {
  return resource('bookmarkCollections', row.id, {
    name: row.name,
    bookmarksCount: row.bookmarksCount,
    createdAt: formatTimestamp(row.createdAt),
    updatedAt: formatTimestamp(row.updatedAt),
  });
}

/** My bookmark of a media, with the media's bookmark count after the change. */
export const BookmarkSchema = ResourceSchema(
  'bookmarks',
  Type.Object({ createdAt: Timestamp, updatedAt: Timestamp, mediaBookmarksCount: Type.Integer() }),
  Type.Object({ media: RelationshipSchema('media'), collection: RelationshipSchema('bookmarkCollections') }),
  'Bookmark',
);

export function presentBookmark(row: BookmarkRow, mediaBookmarksCount: number) {
  return {
    type: 'bookmarks',
    id: row.id,
    attributes: {
      createdAt: formatTimestamp(row.createdAt),
      updatedAt: formatTimestamp(row.updatedAt),
      mediaBookmarksCount,
    },
    relationships: {
      media: relation('media', row.mediaId),
      collection: relation('bookmarkCollections', row.collectionId),
    },
  };
}

/** A media in my bookmarks; `meta` says when and into which collection (null: none). */
export const BookmarkedMediaSchema = Type.Object(
  { ...MediaSchema.properties, meta: Type.Object({ bookmarkedAt: Timestamp, collectionId: Nullable(Type.String()) }) },
  { title: 'bookmarkedMedia' },
);

export function presentBookmarkedMedia({ media, bookmark }: BookmarkedMedia, viewerId: string) {
  // `meta` set on the resource just made (a list presents twenty of these), not a copy of it.
  return Object.assign(presentMedia(media, viewerId), {
    meta: { bookmarkedAt: formatTimestamp(bookmark.createdAt), collectionId: bookmark.collectionId },
  });
}
