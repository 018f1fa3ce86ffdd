/** My media (avatar, cover, posts, descriptions) and a user's public media. */
import multipart from '@fastify/multipart';
import { type TProperties, Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { idParam, registerRoutes, route } from '../../platform/http/route.ts';
import type { App } from '../../platform/http/types.ts';
import { hashtagPattern, maxHashtags } from './hashtags.ts';
import type { MediaServices } from './media.module.ts';
import { ownMediaKeyset, userMediaKeyset } from './media.repository.ts';
import { MediaSchema, OwnMediaSchema, presentMedia, presentOwnMedia } from './presenters.ts';
import { booleanField, multipartOptions, readUploadForm } from './upload-form.ts';

export const maxDescriptionLength = 2000;

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

const UploadForm = (fields: TProperties) =>
  Type.Object({
    file: Type.String({ format: 'binary', description: 'The image (JPEG, PNG, WebP, AVIF, GIF, HEIC)' }),
    ...fields,
  });
const uploadErrors = [
  'fileMissing',
  'fileTooLarge',
  'imageTooLarge',
  'mediaQuotaExceeded',
  'unsupportedImage',
  'corruptImage',
  'notFound',
] as const;
const OwnMedia = { status: 201, schema: DocumentSchema(OwnMediaSchema) } as const;
const params = { mediaId: idParam('UUID or 32 hex digits') };

export async function mediaRoutes(app: App, { media, mediaUploads }: MediaServices) {
  // Multipart only where uploads are taken, with its own limits (see upload-form.ts).
  await app.register(async (uploads: App) => {
    await uploads.register(multipart, multipartOptions);
    registerRoutes(uploads, 'media', [
      ...(['avatar', 'cover'] as const).map((kind) =>
        route({
          method: 'POST',
          path: `/api/users/me/${kind}`,
          auth: 'user',
          summary: `Upload my ${kind} (multipart: file); replaces the previous one`,
          multipart: UploadForm({}),
          errors: [...uploadErrors],
          success: OwnMedia,
          handler: async ({ viewer, request }) => {
            const form = await readUploadForm(request, []);
            return { data: presentOwnMedia(await mediaUploads.upload(viewer.userId, kind, { data: form.file })) };
          },
        }),
      ),
      route({
        method: 'POST',
        path: '/api/users/me/media',
        auth: 'user',
        summary: 'Upload a media post (multipart: file, optional description and locationPublic "true"/"false")',
        multipart: UploadForm({
          description: Type.Optional(Type.String({ maxLength: maxDescriptionLength })),
          locationPublic: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
        }),
        errors: [...uploadErrors],
        success: OwnMedia,
        handler: async ({ viewer, request }) => {
          const form = await readUploadForm(request, ['description', 'locationPublic']);
          const description = checkedDescription(form.fields.description);
          const locationPublic = booleanField(form.fields, 'locationPublic');
          const row = await mediaUploads.upload(viewer.userId, 'post', {
            data: form.file,
            ...(description !== undefined ? { description } : {}),
            ...(locationPublic !== undefined ? { locationPublic } : {}),
          });
          return { data: presentOwnMedia(row) };
        },
      }),
    ]);
  });

  registerRoutes(app, 'media', [
    ...(['avatar', 'cover'] as const).map((kind) =>
      route({
        method: 'DELETE',
        path: `/api/users/me/${kind}`,
        auth: 'user',
        summary: `Remove my ${kind} (404 when there is none)`,
        errors: ['notFound'],
        success: { status: 204 },
        handler: async ({ viewer }) => {
          if (!(await mediaUploads.removeProfileImage(viewer.userId, kind))) throw new AppError('notFound');
        },
      }),
    ),
    route({
      method: 'GET',
      path: '/api/users/me/media',
      auth: 'user',
      summary: 'My media posts, newest first, in every state',
      page: { keyset: ownMediaKeyset },
      success: { status: 200, schema: CollectionSchema(OwnMediaSchema) },
      handler: async ({ viewer, page, links }) => {
        const result = await media.listOwnPosts(viewer.userId, page);
        return { data: result.items.map(presentOwnMedia), meta: { limit: page.limit }, links: links(result) };
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/media/{mediaId}',
      auth: 'user',
      summary: 'Delete one of my media posts and its files',
      params,
      errors: ['notFound'],
      success: { status: 204 },
      handler: async ({ viewer, params }) => {
        const row = await media.requireOwnPost(viewer.userId, params.mediaId);
        await mediaUploads.deleteMedia(row.id);
      },
    }),
    route({
      method: 'PUT',
      path: '/api/users/me/media/{mediaId}/description',
      auth: 'user',
      summary: 'Write the description of my media (hashtags given, or the #tags of the text)',
      params,
      body: Type.Object(
        {
          description: Type.String({ minLength: 1, maxLength: maxDescriptionLength }),
          hashtags: Type.Optional(
            Type.Array(Type.String({ pattern: hashtagPattern.source.replace('^', '^#?') }), { maxItems: maxHashtags }),
          ),
        },
        { additionalProperties: false },
      ),
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(OwnMediaSchema) },
      handler: async ({ viewer, params, body }) => ({
        data: presentOwnMedia(
          await media.setDescription(viewer.userId, params.mediaId, body.description, body.hashtags),
        ),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/media/{mediaId}/description',
      auth: 'user',
      summary: 'Clear the description and hashtags of my media',
      params,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => media.clearDescription(viewer.userId, params.mediaId),
    }),
    route({
      method: 'GET',
      path: '/api/users/{userId}/media',
      auth: 'none',
      summary: "A user's published media posts, newest first (sensitive and hidden ones left out)",
      params: { userId: idParam('UUID or 32 hex digits') },
      page: { keyset: userMediaKeyset },
      errors: ['notFound'],
      success: { status: 200, schema: CollectionSchema(MediaSchema) },
      handler: async ({ params, page, links }) => {
        const result = await media.listPublicPosts(params.userId, page);
        return {
          data: result.items.map((row) => presentMedia(row, null)),
          meta: { limit: page.limit },
          links: links(result),
        };
      },
    }),
  ]);
}
