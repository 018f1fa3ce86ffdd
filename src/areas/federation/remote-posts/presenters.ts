/** Remote posts and the replies local users sent to them, as JSON:API resources (docs/api.md, Federation). */
import { Type } from 'typebox';
import {
  Nullable,
  RelationshipSchema,
  ResourceSchema,
  relation,
  resource,
  Timestamp,
} from '../../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../../platform/http/time.ts';
import { FilteredMeta, type FilterResult, filteredMeta } from '../../filters/public.ts';
import type { ListedRemotePost } from './remote-posts.repository.ts';
import { replyPath } from './remote-posts.service.ts';
import type { RemotePostReplyRow } from './tables.ts';

const httpUrl = (description: string) => Type.String({ format: 'uri', description });

export const RemotePostReplySchema = ResourceSchema(
  'remote-post-replies',
  Type.Object({
    text: Type.String({ description: 'the text sent, plain text' }),
    uri: httpUrl('the ActivityPub id of the Note sent (`{PUBLIC_URL}/ap/replies/{id}`)'),
    createdAt: Timestamp,
  }),
  Type.Object({ post: RelationshipSchema('remote-posts') }),
  'RemotePostReply',
);

const AttachmentSchema = Type.Object({
  url: httpUrl("the file on the author's server (not copied here: load it from there)"),
  mediaType: Nullable(Type.String({ description: 'as the author’s server gave it, e.g. `image/jpeg`' })),
  altText: Nullable(Type.String({ description: 'its description, plain text' })),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
});

const RemotePostResourceSchema = ResourceSchema(
  'remote-posts',
  Type.Object({
    uri: httpUrl('the ActivityPub id of the note'),
    url: httpUrl('the original on its server (its page), to link to'),
    author: Type.Object({
      handle: Type.String({ description: '`name@host`' }),
      name: Nullable(Type.String({ description: 'plain text' })),
      avatarUrl: Nullable(httpUrl("on the author's server")),
    }),
    content: Nullable(Type.String({ description: 'plain text (the HTML it came in loses its markup)' })),
    summary: Nullable(Type.String({ description: 'its content warning, plain text' })),
    sensitive: Type.Boolean({ description: 'marked sensitive by its author: blur the images' }),
    publishedAt: Timestamp,
    editedAt: Nullable(Timestamp),
    attachments: Type.Array(AttachmentSchema, { description: 'its images (and other media), at most 10' }),
    likedByMe: Type.Boolean(),
    myReplies: Type.Array(
      Type.Object({ id: Type.String({ format: 'uuid' }), text: Type.String(), createdAt: Timestamp }),
      { description: 'the replies I sent to it, oldest first' },
    ),
  }),
  Type.Object({ author: RelationshipSchema('users') }),
  'RemotePost',
);

/** `meta.filtered` when a warn filter of the viewer matched the post (docs/api.md, Keyword filters). */
export const RemotePostSchema = Type.Object(
  { ...RemotePostResourceSchema.properties, meta: FilteredMeta },
  { title: 'RemotePost' },
);

export function presentRemotePost(
  row: ListedRemotePost & { filtered?: FilterResult[] },
  myReplies: RemotePostReplyRow[],
) {
  const presented = resource(
    'remote-posts',
    row.id,
    {
      uri: row.uri,
      url: row.url,
      author: { handle: row.authorHandle, name: row.authorName, avatarUrl: row.authorAvatarUrl },
      content: row.content,
      summary: row.summary,
      sensitive: row.sensitive,
      publishedAt: formatTimestamp(row.publishedAt),
      editedAt: row.editedAt === null ? null : formatTimestamp(row.editedAt),
      attachments: row.attachments.map(({ name, ...attachment }) => ({ ...attachment, altText: name })),
      likedByMe: row.likedByMe,
      myReplies: myReplies.map((reply) => ({
        id: reply.id,
        text: reply.text,
        createdAt: formatTimestamp(reply.createdAt),
      })),
    },
    { author: relation('users', row.authorId) },
  );
  return { ...presented, ...filteredMeta(row.filtered ?? []) };
}

export function presentRemotePostReply(reply: RemotePostReplyRow, publicUrl: string) {
  return resource(
    'remote-post-replies',
    reply.id,
    {
      text: reply.text,
      uri: new URL(replyPath(reply.id), publicUrl).href,
      createdAt: formatTimestamp(reply.createdAt),
    },
    { post: relation('remote-posts', reply.postId) },
  );
}
