/** My bookmark collections: /api/users/me/bookmarks/collections. */
import { Type } from 'typebox';
import { requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema as CollectionPageSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageOf, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import type { BookmarksServices } from './bookmarks.module.ts';
import { collectionNameMaxLength } from './collections.service.ts';
import { CollectionSchema, presentCollection } from './presenters.ts';

const tags = ['bookmarks'];
const NameBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: collectionNameMaxLength,
      description: '1 to 60 characters once trimmed; unique among mine whatever the case',
    }),
  },
  { additionalProperties: false },
);
const CollectionParams = Type.Object({ collectionId: Type.String({ description: 'UUID' }) });

export function collectionsRoutes(app: App, { bookmarkCollections }: BookmarksServices) {
  app.get(
    '/api/users/me/bookmarks/collections',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My bookmark collections, newest first',
        querystring: Type.Object(pageQuerySchema(20, 100), { additionalProperties: false }),
        response: { 200: CollectionPageSchema(CollectionSchema) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      const result = pageOf(await bookmarkCollections.list(requireViewer(request).userId, page), page, (row) => [
        row.createdAt,
        row.id,
      ]);
      return {
        data: result.items.map(presentCollection),
        meta: { limit: page.limit },
        links: pageLinks(request.url, result),
      };
    },
  );

  app.post(
    '/api/users/me/bookmarks/collections',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Create a bookmark collection',
        body: NameBody,
        response: { 201: DocumentSchema(CollectionSchema) },
      },
    },
    async (request, reply) => {
      const created = await bookmarkCollections.create(requireViewer(request).userId, request.body.name);
      return reply.status(201).send({ data: presentCollection(created) });
    },
  );

  app.patch(
    '/api/users/me/bookmarks/collections/:collectionId',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Rename one of my bookmark collections',
        params: CollectionParams,
        body: NameBody,
        response: { 200: DocumentSchema(CollectionSchema) },
      },
    },
    async (request) => {
      const id = requireUuidParam(request.params.collectionId, 'collectionId', false);
      return {
        data: presentCollection(await bookmarkCollections.rename(requireViewer(request).userId, id, request.body.name)),
      };
    },
  );

  app.delete(
    '/api/users/me/bookmarks/collections/:collectionId',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Delete one of my collections; its bookmarks stay, outside any collection',
        params: CollectionParams,
      },
    },
    async (request, reply) => {
      await bookmarkCollections.delete(
        requireViewer(request).userId,
        requireUuidParam(request.params.collectionId, 'collectionId', false),
      );
      return reply.status(204).send();
    },
  );
}
