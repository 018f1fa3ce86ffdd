/** My media (avatar, cover, posts, descriptions) and a user's public media. */
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import { hashtagPattern, maxHashtags } from './hashtags.ts';
import type { MediaServices } from './media.module.ts';
import { MediaSchema, OwnMediaSchema, presentMedia, presentOwnMedia } from './presenters.ts';
import { booleanField, multipartOptions, readUploadForm } from './upload-form.ts';

export const maxDescriptionLength = 2000;

const MediaIdParams = Type.Object({ mediaId: Type.String({ description: 'UUID or 32 hex digits' }) });
const uploadConsumes = ['multipart/form-data'];

function checkedDescription(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') {
    throw new AppError('validationFailed', { source: { pointer: '/description' }, detail: 'must not be blank' });
  }
  if ([...value].length > maxDescriptionLength) {
    throw new AppError('validationFailed', {
      source: { pointer: '/description' },
      detail: `at most ${maxDescriptionLength} characters`,
    });
  }
  return value;
}

export async function mediaRoutes(app: App, services: MediaServices) {
  // Multipart only where uploads are taken, with its own limits (see upload-form.ts).
  await app.register(async (uploads: App) => {
    await uploads.register(multipart, multipartOptions);
    for (const kind of ['avatar', 'cover'] as const) {
      uploads.post(
        `/api/users/me/${kind}`,
        {
          config: { auth: 'user' },
          schema: {
            tags: ['media'],
            summary: `Upload my ${kind} (multipart: file); replaces the previous one`,
            consumes: uploadConsumes,
            response: { 201: DocumentSchema(OwnMediaSchema) },
          },
        },
        async (request, reply) => {
          const viewer = requireViewer(request);
          const form = await readUploadForm(request, []);
          const row = await services.mediaUploads.upload(viewer.userId, kind, { data: form.file });
          return reply.status(201).send({ data: presentOwnMedia(row) });
        },
      );
    }
    uploads.post(
      '/api/users/me/media',
      {
        config: { auth: 'user' },
        schema: {
          tags: ['media'],
          summary: 'Upload a media post (multipart: file, optional description and locationPublic "true"/"false")',
          consumes: uploadConsumes,
          response: { 201: DocumentSchema(OwnMediaSchema) },
        },
      },
      async (request, reply) => {
        const viewer = requireViewer(request);
        const form = await readUploadForm(request, ['description', 'locationPublic']);
        const description = checkedDescription(form.fields.description);
        const locationPublic = booleanField(form.fields, 'locationPublic');
        const row = await services.mediaUploads.upload(viewer.userId, 'post', {
          data: form.file,
          ...(description !== undefined ? { description } : {}),
          ...(locationPublic !== undefined ? { locationPublic } : {}),
        });
        return reply.status(201).send({ data: presentOwnMedia(row) });
      },
    );
  });

  for (const kind of ['avatar', 'cover'] as const) {
    app.delete(
      `/api/users/me/${kind}`,
      {
        config: { auth: 'user' },
        schema: { tags: ['media'], summary: `Remove my ${kind} (404 when there is none)` },
      },
      async (request, reply) => {
        const viewer = requireViewer(request);
        if (!(await services.mediaUploads.removeProfileImage(viewer.userId, kind))) throw new AppError('notFound');
        return reply.status(204).send();
      },
    );
  }

  app.get(
    '/api/users/me/media',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['media'],
        summary: 'My media posts, newest first, in every state',
        querystring: Type.Object(pageQuerySchema(20, 100), { additionalProperties: false }),
        response: { 200: CollectionSchema(OwnMediaSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const page = await services.media.listOwnPosts(viewer.userId, pageRequest(request.query, ['timestamp', 'uuid']));
      return {
        data: page.items.map(presentOwnMedia),
        meta: { limit: request.query.limit ?? 20 },
        links: pageLinks(request.url, page),
      };
    },
  );

  app.delete(
    '/api/users/me/media/:mediaId',
    {
      config: { auth: 'user' },
      schema: { tags: ['media'], summary: 'Delete one of my media posts and its files', params: MediaIdParams },
    },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const row = await services.media.requireOwnPost(
        viewer.userId,
        requireUuidParam(request.params.mediaId, 'mediaId'),
      );
      await services.mediaUploads.deleteMedia(row.id);
      return reply.status(204).send();
    },
  );

  app.put(
    '/api/users/me/media/:mediaId/description',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['media'],
        summary: 'Write the description of my media (hashtags given, or the #tags of the text)',
        params: MediaIdParams,
        body: Type.Object(
          {
            description: Type.String({ minLength: 1, maxLength: maxDescriptionLength }),
            hashtags: Type.Optional(
              Type.Array(Type.String({ pattern: hashtagPattern.source.replace('^', '^#?') }), {
                maxItems: maxHashtags,
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: DocumentSchema(OwnMediaSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const id = requireUuidParam(request.params.mediaId, 'mediaId');
      const row = await services.media.setDescription(
        viewer.userId,
        id,
        request.body.description,
        request.body.hashtags,
      );
      return { data: presentOwnMedia(row) };
    },
  );

  app.delete(
    '/api/users/me/media/:mediaId/description',
    {
      config: { auth: 'user' },
      schema: { tags: ['media'], summary: 'Clear the description and hashtags of my media', params: MediaIdParams },
    },
    async (request, reply) => {
      const viewer = requireViewer(request);
      await services.media.clearDescription(viewer.userId, requireUuidParam(request.params.mediaId, 'mediaId'));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users/:userId/media',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['media'],
        summary: "A user's published media posts, newest first (sensitive and hidden ones left out)",
        params: Type.Object({ userId: Type.String({ description: 'UUID or 32 hex digits' }) }),
        querystring: Type.Object(pageQuerySchema(20, 100), { additionalProperties: false }),
        response: { 200: CollectionSchema(MediaSchema) },
      },
    },
    async (request) => {
      const userId = requireUuidParam(request.params.userId, 'userId');
      const page = await services.media.listPublicPosts(userId, pageRequest(request.query, ['timestamp', 'uuid']));
      return {
        data: page.items.map((row) => presentMedia(row, null)),
        meta: { limit: request.query.limit ?? 20 },
        links: pageLinks(request.url, page),
      };
    },
  );
}
