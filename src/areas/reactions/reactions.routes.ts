/** Likes and dislikes: /api/users/me/media/{mediaId}/reaction and the lists of reactions. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import {
  presentReactedMedia,
  presentReaction,
  presentReactor,
  ReactedMediaSchema,
  ReactionSchema,
  ReactionTypeSchema,
  ReactorSchema,
} from './presenters.ts';
import type { ReactionsServices } from './public.ts';
import { reactedMediaKeysets, reactorsKeysets } from './reactions.repository.ts';
import type { ReactionsService } from './reactions.service.ts';
import type { ReactionType } from './tables.ts';

const mediaParams = { mediaId: idParam('UUID or 32 hex digits') };
const plural: Record<ReactionType, string> = { like: 'likes', dislike: 'dislikes' };
const ReactedMediaPage = { status: 200, schema: CollectionSchema(ReactedMediaSchema) } as const;

/** The three lists of one reaction type: mine, a user's, and a media's reactors. */
function listsOf(type: ReactionType, reactions: ReactionsService): AnyRoute[] {
  const keyset = reactedMediaKeysets[type];
  return [
    route({
      method: 'GET',
      path: `/api/users/me/${plural[type]}`,
      auth: 'user',
      summary: `The media I ${type}d, newest ${type} first`,
      page: { keyset },
      success: ReactedMediaPage,
      handler: async ({ viewer, page, links }) =>
        listDocument(await reactions.listOwn(viewer.userId, type, page), { page, links }, keyset, (row) =>
          presentReactedMedia(row, viewer.userId),
        ),
    }),
    route({
      method: 'GET',
      path: `/api/users/{userId}/${plural[type]}`,
      auth: 'optional',
      summary: `The media a user ${type}d, newest first (403 when they keep their reactions private)`,
      params: { userId: idParam('UUID or 32 hex digits') },
      page: { keyset },
      errors: ['notFound', 'reactionsNotPublic'],
      success: ReactedMediaPage,
      handler: async ({ viewer, params, page, links }) => {
        const viewerId = viewer?.userId ?? null;
        const rows = await reactions.listOfUser(params.userId, type, viewerId, page);
        return listDocument(rows, { page, links }, keyset, (row) => presentReactedMedia(row, viewerId));
      },
    }),
    route({
      method: 'GET',
      path: `/api/media/{mediaId}/${plural[type]}`,
      auth: 'optional',
      summary: `The users who ${type}d a media, newest first`,
      params: mediaParams,
      page: { keyset: reactorsKeysets[type] },
      errors: ['notFound'],
      success: { status: 200, schema: CollectionSchema(ReactorSchema) },
      handler: async ({ viewer, params, page, links }) => {
        const rows = await reactions.listReactors(params.mediaId, type, viewer?.userId ?? null, page);
        return listDocument(rows, { page, links }, reactorsKeysets[type], presentReactor);
      },
    }),
  ];
}

export function reactionsRoutes({ reactions }: Pick<ReactionsServices, 'reactions'>): AnyRoute[] {
  return [
    route({
      method: 'PUT',
      path: '/api/users/me/media/{mediaId}/reaction',
      auth: 'user',
      summary: 'Like or dislike a media (one reaction per media; the other type is replaced, the same type is a no-op)',
      params: mediaParams,
      body: Type.Object({ type: ReactionTypeSchema }, { additionalProperties: false }),
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(ReactionSchema) },
      handler: async ({ viewer, params, body }) => {
        const result = await reactions.react(viewer.userId, params.mediaId, body.type);
        return { data: presentReaction(result), meta: { change: result.change } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/media/{mediaId}/reaction',
      auth: 'user',
      summary: 'Remove my reaction on a media (404 when I have none)',
      params: mediaParams,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => reactions.unreact(viewer.userId, params.mediaId),
    }),
    ...listsOf('like', reactions),
    ...listsOf('dislike', reactions),
  ];
}
