/** My bookmark collections: /api/users/me/bookmarks/collections. */
import { Type } from 'typebox';
import { CollectionSchema as CollectionPageSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { collectionsKeyset } from './collections.repository.ts';
import { collectionNameMaxLength } from './collections.service.ts';
import { CollectionSchema, presentCollection } from './presenters.ts';
import type { BookmarksServices } from './public.ts';

const base = '/api/users/me/bookmarks/collections';
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
const params = { collectionId: idParam('UUID', { hex: false }) };
const OneCollection = DocumentSchema(CollectionSchema);

export function collectionsRoutes({
  bookmarkCollections: collections,
}: Pick<BookmarksServices, 'bookmarkCollections'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      summary: 'My bookmark collections, newest first',
      page: { keyset: collectionsKeyset },
      success: { status: 200, schema: CollectionPageSchema(CollectionSchema) },
      handler: async ({ viewer, page, links }) => {
        const rows = await collections.list(viewer.userId, page);
        return listDocument(rows, { page, links }, collectionsKeyset, presentCollection);
      },
    }),
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      summary: 'Create a bookmark collection',
      body: NameBody,
      errors: ['collectionNameTaken', 'collectionLimitReached'],
      success: { status: 201, schema: OneCollection },
      handler: async ({ viewer, body }) => ({
        data: presentCollection(await collections.create(viewer.userId, body.name)),
      }),
    }),
    route({
      method: 'PATCH',
      path: `${base}/{collectionId}`,
      auth: 'user',
      summary: 'Rename one of my bookmark collections',
      params,
      body: NameBody,
      errors: ['notFound', 'collectionNameTaken'],
      success: { status: 200, schema: OneCollection },
      handler: async ({ viewer, params, body }) => ({
        data: presentCollection(await collections.rename(viewer.userId, params.collectionId, body.name)),
      }),
    }),
    route({
      method: 'DELETE',
      path: `${base}/{collectionId}`,
      auth: 'user',
      summary: 'Delete one of my collections; its bookmarks stay, outside any collection',
      params,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => collections.delete(viewer.userId, params.collectionId),
    }),
  ];
}
