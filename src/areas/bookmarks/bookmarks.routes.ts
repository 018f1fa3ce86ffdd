/** My bookmarks: PUT/DELETE /api/users/me/media/{mediaId}/bookmark and GET /api/users/me/bookmarks. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema as CollectionPageSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { isCanonicalUuid } from '../../platform/ids/ids.ts';
import { bookmarksKeyset, type CollectionFilter } from './bookmarks.repository.ts';
import { BookmarkedMediaSchema, BookmarkSchema, presentBookmark, presentBookmarkedMedia } from './presenters.ts';
import type { BookmarksServices } from './public.ts';

const CollectionId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'UUID of one of my collections',
});
const params = { mediaId: idParam('UUID or 32 hex digits') };

/** `collectionId` of the list: absent for all, `none` for those outside any collection, or a UUID. */
function collectionFilter(raw: string | undefined): CollectionFilter {
  if (raw === undefined) return { kind: 'all' };
  if (raw === 'none') return { kind: 'none' };
  if (isCanonicalUuid(raw)) return { kind: 'in', collectionId: raw.toLowerCase() };
  throw new AppError('invalidQueryParameter', {
    source: { parameter: 'collectionId' },
    detail: 'must be a UUID or none',
  });
}

export function bookmarksRoutes({ bookmarks }: Pick<BookmarksServices, 'bookmarks'>): AnyRoute[] {
  return [
    route({
      method: 'PUT',
      path: '/api/users/me/media/{mediaId}/bookmark',
      auth: 'user',
      summary:
        'Bookmark a media (idempotent); collectionId puts it in one of my collections, null takes it out, absent keeps it where it is',
      params,
      body: Type.Object({ collectionId: Type.Optional(Nullable(CollectionId)) }, { additionalProperties: false }),
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(BookmarkSchema) },
      handler: async ({ viewer, params, body }) => {
        const collectionId = body.collectionId?.toLowerCase() ?? body.collectionId;
        const result = await bookmarks.put(viewer.userId, params.mediaId, collectionId);
        return { data: presentBookmark(result.bookmark, result.bookmarksCount), meta: { change: result.change } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/media/{mediaId}/bookmark',
      auth: 'user',
      summary: 'Remove my bookmark of a media (404 when there is none)',
      params,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => bookmarks.remove(viewer.userId, params.mediaId),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/bookmarks',
      auth: 'user',
      summary: 'My bookmarked media, newest bookmark first, optionally of one collection',
      page: { keyset: bookmarksKeyset },
      query: {
        collectionId: Type.Optional(
          Type.String({ description: 'a collection of mine (UUID), or `none` for bookmarks outside any collection' }),
        ),
      },
      errors: ['notFound'],
      success: { status: 200, schema: CollectionPageSchema(BookmarkedMediaSchema) },
      handler: async ({ viewer, query, page, links }) => {
        const rows = await bookmarks.list(viewer.userId, collectionFilter(query.collectionId), page);
        return listDocument(rows, { page, links }, bookmarksKeyset, (row) =>
          presentBookmarkedMedia(row, viewer.userId),
        );
      },
    }),
  ];
}
