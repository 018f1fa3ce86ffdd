/** Multi-photo posts (an extension of the interface: docs/api.md, Posts). The rules are posts.service.ts. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { pageDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { userMediaKeyset } from './media.repository.ts';
import { maxDescriptionLength, userListDescription } from './media.routes.ts';
import { maxPostPhotos } from './post-plan.ts';
import { ListedPostSchema, PostSchema, presentListedPost, presentPost } from './post-presenters.ts';
import type { MediaServices } from './public.ts';

/** A photo's own text (alt text). */
export const maxAltTextLength = 1500;

const MediaId = Type.String({ description: 'a media id: UUID or 32 hex digits', maxLength: 36 });
const AltText = Nullable(
  Type.String({ minLength: 1, maxLength: maxAltTextLength, description: "the photo's own text (alt text)" }),
);
const Caption = Nullable(
  Type.String({
    minLength: 1,
    maxLength: maxDescriptionLength,
    description: "the post's text (its lead's description; its #tags are the post's hashtags); null clears it",
  }),
);
const PhotoInput = Type.Object(
  { mediaId: MediaId, description: Type.Optional(AltText) },
  { additionalProperties: false },
);

/** Writes per minute, per IP then per user. */
const postWriteLimits = [perIp('posts-write', 120, 60), perUser('posts-write', 30, 60)];

const params = { postId: idParam("the post's id: its lead media's id (UUID or 32 hex digits)") };

export function postsRoutes({ posts }: Pick<MediaServices, 'posts'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/api/users/me/posts',
      auth: 'user',
      summary: 'Make a post of 1 to 10 of my uploaded photos, in order (the first is the lead), with a caption',
      description:
        'Photos of someone else are 404, a photo in a post already 409 `photoInPost`; a refused request changes nothing.',
      body: Type.Object(
        {
          photos: Type.Array(PhotoInput, { minItems: 1, maxItems: maxPostPhotos }),
          caption: Type.Optional(Caption),
        },
        { additionalProperties: false },
      ),
      rateLimit: postWriteLimits,
      errors: ['notFound', 'photoInPost', 'invalidId'],
      success: { status: 201, schema: DocumentSchema(PostSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentPost(await posts.create(viewer.userId, body.photos, body.caption), viewer.userId),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/posts/{postId}',
      auth: 'optional',
      summary: 'A post with its photos in order (a single photo is a post of one; a member photo gives its post)',
      params,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(PostSchema) },
      handler: async ({ viewer, params }) => {
        const viewerId = viewer?.userId ?? null;
        return { data: presentPost(await posts.find(params.postId, viewerId), viewerId) };
      },
    }),
    route({
      method: 'PATCH',
      path: '/api/users/me/posts/{postId}',
      auth: 'user',
      summary: "Change my post: caption, photos removed or added, their order, each photo's text",
      description:
        'Applied in this order: `remove` (they become photos of their own again; never the lead: 409 `postLeadRemoval`), ' +
        '`add` (at the end), `order` (every photo of the result exactly once), `photos` (texts). All or nothing.',
      params,
      body: Type.Object(
        {
          caption: Type.Optional(Caption),
          add: Type.Optional(Type.Array(PhotoInput, { maxItems: maxPostPhotos })),
          remove: Type.Optional(Type.Array(MediaId, { maxItems: maxPostPhotos })),
          order: Type.Optional(Type.Array(MediaId, { minItems: 1, maxItems: maxPostPhotos })),
          photos: Type.Optional(
            Type.Array(Type.Object({ mediaId: MediaId, description: AltText }, { additionalProperties: false }), {
              maxItems: maxPostPhotos,
            }),
          ),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
      rateLimit: postWriteLimits,
      errors: ['notFound', 'photoInPost', 'postLeadRemoval', 'invalidId'],
      success: { status: 200, schema: DocumentSchema(PostSchema) },
      handler: async ({ viewer, params, body }) => ({
        data: presentPost(await posts.update(viewer.userId, params.postId, body), viewer.userId),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/posts/{postId}',
      auth: 'user',
      summary: 'Delete my post and every photo of it (rows and files)',
      params,
      rateLimit: postWriteLimits,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => posts.delete(viewer.userId, params.postId),
    }),
    route({
      method: 'GET',
      path: '/api/users/{userId}/posts',
      auth: 'optional',
      summary: "A user's posts with their photos, newest first (the rule of GET /api/users/{userId}/media)",
      description: userListDescription,
      params: { userId: idParam('UUID or 32 hex digits') },
      page: { keyset: userMediaKeyset },
      errors: ['notFound'],
      success: { status: 200, schema: CollectionSchema(ListedPostSchema) },
      handler: async ({ viewer, params, page, links }) => {
        const viewerId = viewer?.userId ?? null;
        return pageDocument(await posts.listOf(params.userId, page, viewerId), { page, links }, (post) =>
          presentListedPost(post, viewerId),
        );
      },
    }),
  ];
}
