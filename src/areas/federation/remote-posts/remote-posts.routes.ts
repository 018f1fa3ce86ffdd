/** Remote posts: the following list, and my likes and replies of them (docs/api.md, Federation). */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema } from '../../../platform/http/jsonapi.ts';
import { listDocument } from '../../../platform/http/page-document.ts';
import { perIp, perUser } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../../platform/http/route.ts';
import type { RemotePostsService } from '../public.ts';
import { presentRemotePost, presentRemotePostReply, RemotePostReplySchema, RemotePostSchema } from './presenters.ts';
import { remotePostsKeyset } from './remote-posts.repository.ts';
import { remoteReplyMaxLength } from './remote-posts.service.ts';

const postParams = { postId: idParam('The remote post UUID', { hex: false }) };
const likeLimits = [perIp('remote-post-likes', 600, 3600), perUser('remote-post-likes', 300, 3600)];
const replyLimits = [perIp('remote-post-replies', 300, 3600), perUser('remote-post-replies', 60, 3600)];

const ReplyBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: remoteReplyMaxLength,
      description: 'plain text, 1 to 500 characters',
    }),
  },
  { additionalProperties: false },
);

export function remotePostsRoutes(remotePosts: RemotePostsService, publicUrl: string): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/users/me/following/remote-posts',
      auth: 'user',
      summary:
        'The posts of the remote (fediverse) accounts I follow, newest first (keyset over publishedAt, id); blocked and muted authors left out',
      page: { keyset: remotePostsKeyset },
      success: { status: 200, schema: CollectionSchema(RemotePostSchema) },
      handler: async ({ viewer, page, links }) => {
        const { rows, replies } = await remotePosts.following(viewer.userId, page);
        return listDocument(rows, { page, links }, remotePostsKeyset, (row) =>
          presentRemotePost(row, replies.get(row.id) ?? []),
        );
      },
    }),
    route({
      method: 'PUT',
      path: '/api/users/me/remote-posts/{postId}/like',
      auth: 'user',
      summary: "Like a remote post: a Like is sent to its author's server (idempotent: nothing more when liked)",
      params: postParams,
      rateLimit: likeLimits,
      errors: ['notFound', 'federationOff'],
      success: { status: 204 },
      handler: async ({ viewer, params }) => {
        await remotePosts.like(viewer.userId, params.postId);
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/remote-posts/{postId}/like',
      auth: 'user',
      summary: 'Take my like of a remote post back: an Undo(Like) is sent (idempotent: nothing when not liked)',
      params: postParams,
      rateLimit: likeLimits,
      errors: ['notFound', 'federationOff'],
      success: { status: 204 },
      handler: async ({ viewer, params }) => {
        await remotePosts.unlike(viewer.userId, params.postId);
      },
    }),
    route({
      method: 'POST',
      path: '/api/users/me/remote-posts/{postId}/replies',
      auth: 'user',
      summary:
        "Reply to a remote post: a Create(Note) in reply to it is sent to its author's server; the reply is kept",
      params: postParams,
      body: ReplyBody,
      rateLimit: replyLimits,
      errors: ['notFound', 'federationOff'],
      success: { status: 201, schema: DocumentSchema(RemotePostReplySchema) },
      handler: async ({ viewer, params, body }) => ({
        data: presentRemotePostReply(await remotePosts.reply(viewer.userId, params.postId, body.text), publicUrl),
      }),
    }),
  ];
}
