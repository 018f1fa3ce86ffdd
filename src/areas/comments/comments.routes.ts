/** Comments on media: /api/media/{mediaId}/comments and /api/media/comments/{commentId}. */
import { Type } from 'typebox';
import { pageOf } from '../../platform/db/page.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { commentBodySchemaMax, commentMaxLength } from './comment-text.ts';
import { repliesKeyset, topLevelKeyset } from './comments.repository.ts';
import { threadCap } from './comments.service.ts';
import { CommentAuthorSchema, CommentSchema, presentComments } from './presenters.ts';
import type { CommentsServices } from './public.ts';

const mediaParams = { mediaId: idParam('UUID or 32 hex digits') };
const commentParams = { commentId: idParam('The comment UUID', { hex: false }) };
const BodyText = Type.String({
  minLength: 1,
  maxLength: commentBodySchemaMax,
  description: `the text, 1 to ${commentMaxLength} characters once trimmed; @username mentions and #hashtags are read from it`,
});
const CommentDocument = DocumentSchema(CommentSchema, { included: CommentAuthorSchema });
const CommentPage = CollectionSchema(CommentSchema, {}, CommentAuthorSchema);

/** Writes per minute: per signed-in user and per IP (documented in docs/api.md, Comments). */
export const commentRateLimits = {
  create: [perIp('comment-create', 60, 60), perUser('comment-create', 10, 60)],
  edit: [perIp('comment-edit', 120, 60), perUser('comment-edit', 30, 60)],
  delete: [perIp('comment-delete', 120, 60), perUser('comment-delete', 30, 60)],
};

export function commentsRoutes({ comments }: Pick<CommentsServices, 'comments'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/media/{mediaId}/comments',
      auth: 'optional',
      summary: 'The top-level comments of a media, oldest first, each with its repliesCount',
      description:
        'Public; a valid token identifies the viewer, so an owner reads the comments of their own unpublished media. ' +
        'Deleted comments, and those of banned authors, show as placeholders while replies hang under them.',
      params: mediaParams,
      page: { keyset: topLevelKeyset },
      errors: ['notFound'],
      success: { status: 200, schema: CommentPage },
      handler: async ({ viewer, params, page, links, locale }) => {
        const view = await comments.listTopLevel(params.mediaId, viewer?.userId ?? null, page);
        const result = pageOf(view.rows, page, topLevelKeyset);
        return {
          ...presentComments({ rows: result.items, usernames: view.usernames }, locale),
          meta: { limit: page.limit },
          links: links(result),
        };
      },
    }),
    route({
      method: 'POST',
      path: '/api/media/{mediaId}/comments',
      auth: 'user',
      summary: 'Comment a media, or reply to one of its comments (parentId)',
      description:
        'Threads are at most three levels deep (top level, reply, reply to a reply): a reply to a comment at the ' +
        'third level joins that comment’s parent.',
      params: mediaParams,
      body: Type.Object(
        {
          body: BodyText,
          parentId: Type.Optional(Type.String({ description: 'the comment answered: a live comment of this media' })),
        },
        { additionalProperties: false },
      ),
      errors: ['notFound', 'invalidParentComment', 'parentCommentDeleted'],
      rateLimit: commentRateLimits.create,
      success: { status: 201, schema: CommentDocument },
      handler: async ({ viewer, params, body, locale }) =>
        presentOne(await comments.create(viewer.userId, params.mediaId, body), locale),
    }),
    route({
      method: 'GET',
      path: '/api/media/comments/{commentId}/thread',
      auth: 'optional',
      summary: `The whole thread around a comment in reading order (at most ${threadCap} comments)`,
      description:
        'The top-level comment, then each reply followed by its own replies, oldest first. `meta.truncated` is ' +
        'true when the thread holds more: read the rest page by page through /replies.',
      params: commentParams,
      errors: ['notFound'],
      success: {
        status: 200,
        schema: Type.Object({
          data: Type.Array(CommentSchema),
          included: Type.Array(CommentAuthorSchema),
          meta: Type.Object({ truncated: Type.Boolean(), cap: Type.Integer() }),
        }),
      },
      handler: async ({ viewer, params, locale }) => {
        const view = await comments.thread(params.commentId, viewer?.userId ?? null);
        return { ...presentComments(view, locale), meta: { truncated: view.truncated, cap: threadCap } };
      },
    }),
    route({
      method: 'GET',
      path: '/api/media/comments/{commentId}/replies',
      auth: 'optional',
      summary: 'The direct replies of a comment, oldest first',
      params: commentParams,
      page: { keyset: repliesKeyset },
      errors: ['notFound'],
      success: { status: 200, schema: CommentPage },
      handler: async ({ viewer, params, page, links, locale }) => {
        const view = await comments.listReplies(params.commentId, viewer?.userId ?? null, page);
        const result = pageOf(view.rows, page, repliesKeyset);
        return {
          ...presentComments({ rows: result.items, usernames: view.usernames }, locale),
          meta: { limit: page.limit },
          links: links(result),
        };
      },
    }),
    route({
      method: 'PATCH',
      path: '/api/media/comments/{commentId}',
      auth: 'user',
      summary: 'Edit my comment (sets editedAt; mentions and hashtags are read again)',
      params: commentParams,
      body: Type.Object({ body: BodyText }, { additionalProperties: false }),
      errors: ['notFound'],
      rateLimit: commentRateLimits.edit,
      success: { status: 200, schema: CommentDocument },
      handler: async ({ viewer, params, body, locale }) =>
        presentOne(await comments.edit(viewer.userId, params.commentId, body.body), locale),
    }),
    route({
      method: 'DELETE',
      path: '/api/media/comments/{commentId}',
      auth: 'user',
      summary: 'Delete a comment: my own, or any on my media (it stays as a placeholder in its thread)',
      params: commentParams,
      errors: ['notFound'],
      rateLimit: commentRateLimits.delete,
      success: { status: 204 },
      handler: ({ viewer, params }) => comments.remove(viewer.userId, params.commentId),
    }),
  ];
}

function presentOne(view: Parameters<typeof presentComments>[0], locale: Parameters<typeof presentComments>[1]) {
  const {
    data: [comment],
    included,
  } = presentComments(view, locale);
  if (comment === undefined) throw new Error('presentComments gave no resource for one comment');
  return { data: comment, included };
}
