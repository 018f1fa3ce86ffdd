/** My bookmarks: PUT/DELETE /api/users/me/media/{mediaId}/bookmark and GET /api/users/me/bookmarks. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { isCanonicalUuid, requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema as CollectionPageSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageOf, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import type { BookmarksServices } from './bookmarks.module.ts';
import type { CollectionFilter } from './bookmarks.repository.ts';
import { BookmarkedMediaSchema, BookmarkSchema, presentBookmark, presentBookmarkedMedia } from './presenters.ts';

const tags = ['bookmarks'];
const CollectionId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'UUID of one of my collections',
});
const MediaIdParams = Type.Object({ mediaId: Type.String({ description: 'UUID or 32 hex digits' }) });

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

export function bookmarksRoutes(app: App, { bookmarks }: BookmarksServices) {
  app.put(
    '/api/users/me/media/:mediaId/bookmark',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary:
          'Bookmark a media (idempotent); collectionId puts it in one of my collections, null takes it out, absent keeps it where it is',
        params: MediaIdParams,
        body: Type.Object({ collectionId: Type.Optional(Nullable(CollectionId)) }, { additionalProperties: false }),
        response: { 200: DocumentSchema(BookmarkSchema) },
      },
    },
    async (request) => {
      const mediaId = requireUuidParam(request.params.mediaId, 'mediaId');
      const collectionId = request.body.collectionId?.toLowerCase() ?? request.body.collectionId;
      const result = await bookmarks.put(requireViewer(request).userId, mediaId, collectionId);
      return { data: presentBookmark(result.bookmark, result.bookmarksCount), meta: { change: result.change } };
    },
  );

  app.delete(
    '/api/users/me/media/:mediaId/bookmark',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Remove my bookmark of a media (404 when there is none)', params: MediaIdParams },
    },
    async (request, reply) => {
      await bookmarks.remove(requireViewer(request).userId, requireUuidParam(request.params.mediaId, 'mediaId'));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users/me/bookmarks',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My bookmarked media, newest bookmark first, optionally of one collection',
        querystring: Type.Object(
          {
            ...pageQuerySchema(20, 100),
            collectionId: Type.Optional(
              Type.String({
                description: 'a collection of mine (UUID), or `none` for bookmarks outside any collection',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: CollectionPageSchema(BookmarkedMediaSchema) },
      },
    },
    async (request) => {
      const viewerId = requireViewer(request).userId;
      const filter = collectionFilter(request.query.collectionId);
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      const rows = await bookmarks.list(viewerId, filter, page);
      const result = pageOf(rows, page, (row) => [row.bookmark.createdAt, row.bookmark.id]);
      return {
        data: result.items.map((row) => presentBookmarkedMedia(row, viewerId)),
        meta: { limit: page.limit },
        links: pageLinks(request.url, result),
      };
    },
  );
}
