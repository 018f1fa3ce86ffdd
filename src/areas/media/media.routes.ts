/** My media (removing avatar and cover, posts, descriptions) and a user's public media; uploads are media-uploads.routes.ts. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { pageDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { hashtagPattern, maxHashtags } from '../../platform/text/hashtags.ts';
import { maxContentWarningLength } from './content-warnings.ts';
import { ownMediaKeyset, userMediaKeyset } from './media.repository.ts';
import { ListedMediaSchema, OwnMediaSchema, presentListedMedia, presentOwnMedia } from './presenters.ts';
import type { MediaServices } from './public.ts';

export const maxDescriptionLength = 2000;

/** What a user's public lists of media (their media, their posts) say of the viewer. */
export const userListDescription =
  "Public; a valid token makes it 404 between the viewer and a user either blocks, and applies the viewer's keyword filters (context feeds).";

const params = { mediaId: idParam('UUID or 32 hex digits') };

/** The body of the author's and the moderators' content-warning routes (content-warnings.ts). */
export const ContentWarningBody = Type.Object(
  {
    sensitive: Type.Boolean({ description: 'true: shown behind a content warning; false lifts it (and its text)' }),
    contentWarning: Type.Optional(
      Nullable(
        Type.String({
          maxLength: maxContentWarningLength,
          description: `the warning's text, 1 to ${maxContentWarningLength} characters once trimmed; only with sensitive true; null or absent: none`,
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

/** Author's edits per minute, per IP then per user (docs/api.md, Media: content warnings). */
export const contentWarningRateLimits = [
  perIp('media-content-warning', 120, 60),
  perUser('media-content-warning', 30, 60),
];

export function mediaRoutes({ media, mediaUploads }: Pick<MediaServices, 'media' | 'mediaUploads'>): AnyRoute[] {
  return [
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
      handler: async ({ viewer, page, links }) =>
        pageDocument(await media.listOwnPosts(viewer.userId, page), { page, links }, presentOwnMedia),
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
      method: 'PUT',
      path: '/api/users/me/media/{mediaId}/content-warning',
      auth: 'user',
      summary: 'Mark my media sensitive, with or without a warning text, or lift it (sensitive false)',
      description:
        'The media stays in public lists and carries `sensitive` and `contentWarning`; pages blur it behind the warning. ' +
        'A warning a moderator set is theirs: 403 `contentWarningByModerator`.',
      params,
      body: ContentWarningBody,
      rateLimit: contentWarningRateLimits,
      errors: ['notFound', 'contentWarningByModerator'],
      success: { status: 200, schema: DocumentSchema(OwnMediaSchema) },
      handler: async ({ viewer, params, body }) => ({
        data: presentOwnMedia(await media.setContentWarning(viewer.userId, params.mediaId, body)),
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
      auth: 'optional',
      summary: "A user's published media posts, newest first (sensitive and hidden ones left out)",
      description: userListDescription,
      params: { userId: idParam('UUID or 32 hex digits') },
      page: { keyset: userMediaKeyset },
      errors: ['notFound'],
      success: { status: 200, schema: CollectionSchema(ListedMediaSchema) },
      handler: async ({ viewer, params, page, links }) =>
        pageDocument(await media.listPublicPosts(params.userId, page, viewer?.userId ?? null), { page, links }, (row) =>
          presentListedMedia(row, null),
        ),
    }),
  ];
}
