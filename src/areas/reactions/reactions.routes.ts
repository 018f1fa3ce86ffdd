/** Likes and dislikes: /api/users/me/media/{mediaId}/reaction and the lists of reactions. */
import { Type } from 'typebox';
import { requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageOf, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import {
  presentReactedMedia,
  presentReaction,
  presentReactor,
  ReactedMediaSchema,
  ReactionSchema,
  ReactionTypeSchema,
  ReactorSchema,
} from './presenters.ts';
import type { ReactionsServices } from './reactions.module.ts';
import type { ReactedMedia, Reactor } from './reactions.repository.ts';
import type { ReactionType } from './tables.ts';

const tags = ['reactions'];
const pageQuery = Type.Object(pageQuerySchema(20, 100), { additionalProperties: false });
const MediaIdParams = Type.Object({ mediaId: Type.String({ description: 'UUID or 32 hex digits' }) });
const UserIdParams = Type.Object({ userId: Type.String({ description: 'UUID or 32 hex digits' }) });
const listKey = (row: { reactedAt: Date; reactionId: string }) => [row.reactedAt, row.reactionId];
const plural: Record<ReactionType, string> = { like: 'likes', dislike: 'dislikes' };

export function reactionsRoutes(app: App, { reactions }: ReactionsServices) {
  app.put(
    '/api/users/me/media/:mediaId/reaction',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary:
          'Like or dislike a media (one reaction per media; the other type is replaced, the same type is a no-op)',
        params: MediaIdParams,
        body: Type.Object({ type: ReactionTypeSchema }, { additionalProperties: false }),
        response: { 200: DocumentSchema(ReactionSchema) },
      },
    },
    async (request) => {
      const mediaId = requireUuidParam(request.params.mediaId, 'mediaId');
      const result = await reactions.react(requireViewer(request).userId, mediaId, request.body.type);
      return { data: presentReaction(result), meta: { change: result.change } };
    },
  );

  app.delete(
    '/api/users/me/media/:mediaId/reaction',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Remove my reaction on a media (404 when I have none)', params: MediaIdParams },
    },
    async (request, reply) => {
      await reactions.unreact(requireViewer(request).userId, requireUuidParam(request.params.mediaId, 'mediaId'));
      return reply.status(204).send();
    },
  );

  for (const type of ['like', 'dislike'] as const) {
    const mediaPage = (
      url: string,
      rows: ReactedMedia[],
      page: ReturnType<typeof pageRequest>,
      viewerId: string | null,
    ) => {
      const result = pageOf(rows, page, listKey);
      return {
        data: result.items.map((row) => presentReactedMedia(row, viewerId)),
        meta: { limit: page.limit },
        links: pageLinks(url, result),
      };
    };

    app.get(
      `/api/users/me/${plural[type]}`,
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: `The media I ${type}d, newest ${type} first`,
          querystring: pageQuery,
          response: { 200: CollectionSchema(ReactedMediaSchema) },
        },
      },
      async (request) => {
        const viewerId = requireViewer(request).userId;
        const page = pageRequest(request.query, ['timestamp', 'uuid']);
        return mediaPage(request.url, await reactions.listOwn(viewerId, type, page), page, viewerId);
      },
    );

    app.get(
      `/api/users/:userId/${plural[type]}`,
      {
        config: { auth: 'optional' },
        schema: {
          tags,
          summary: `The media a user ${type}d, newest first (403 when they keep their reactions private)`,
          params: UserIdParams,
          querystring: pageQuery,
          response: { 200: CollectionSchema(ReactedMediaSchema) },
        },
      },
      async (request) => {
        const userId = requireUuidParam(request.params.userId, 'userId');
        const viewerId = request.viewer?.userId ?? null;
        const page = pageRequest(request.query, ['timestamp', 'uuid']);
        return mediaPage(request.url, await reactions.listOfUser(userId, type, viewerId, page), page, viewerId);
      },
    );

    app.get(
      `/api/media/:mediaId/${plural[type]}`,
      {
        config: { auth: 'optional' },
        schema: {
          tags,
          summary: `The users who ${type}d a media, newest first`,
          params: MediaIdParams,
          querystring: pageQuery,
          response: { 200: CollectionSchema(ReactorSchema) },
        },
      },
      async (request) => {
        const mediaId = requireUuidParam(request.params.mediaId, 'mediaId');
        const page = pageRequest(request.query, ['timestamp', 'uuid']);
        const rows: Reactor[] = await reactions.listReactors(mediaId, type, request.viewer?.userId ?? null, page);
        const result = pageOf(rows, page, listKey);
        return {
          data: result.items.map(presentReactor),
          meta: { limit: page.limit },
          links: pageLinks(request.url, result),
        };
      },
    );
  }
}
