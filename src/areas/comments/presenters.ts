import { Type } from 'typebox';
import { Nullable, RelationshipSchema, ResourceSchema, relation, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { translate } from '../../platform/i18n/i18n.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/public.ts';
import { FilteredMeta, type FilterResult, filteredMeta } from '../filters/public.ts';
import type { ListedComment } from './comments.repository.ts';
import type { CommentsView } from './comments.service.ts';

/**
 * A comment. A deleted comment, or one whose author is banned, shows as a placeholder: `deleted`
 * true, `body` null, a localized `placeholder` text, no author, mentions or hashtags.
 */
const CommentResourceSchema = ResourceSchema(
  'comments',
  Type.Object({
    body: Nullable(Type.String({ description: 'the text, 1 to 2000 characters; null on a placeholder' })),
    deleted: Type.Boolean({ description: 'a placeholder: deleted, or its author is banned' }),
    placeholder: Nullable(Type.String({ description: 'what to show instead of the body on a placeholder' })),
    depth: Type.Integer({ minimum: 0, maximum: 2, description: '0 top level, 1 reply, 2 reply to a reply' }),
    repliesCount: Type.Integer({ description: 'direct replies shown under this comment' }),
    mentions: Type.Array(Type.Object({ id: Type.String(), username: Nullable(Type.String()) }), {
      description: 'users mentioned as @username, with their current username (a hidden account is left out)',
    }),
    hashtags: Type.Array(Type.String(), { description: '#hashtags of the body, lower-cased, without #' }),
    createdAt: Timestamp,
    editedAt: Nullable(Timestamp),
  }),
  Type.Object({
    media: RelationshipSchema('media'),
    author: RelationshipSchema('users'),
    parent: RelationshipSchema('comments'),
    root: RelationshipSchema('comments'),
  }),
  'Comment',
);

/** `meta.filtered` when a warn filter of the viewer matched the comment (docs/api.md, Keyword filters). */
export const CommentSchema = Type.Object(
  { ...CommentResourceSchema.properties, meta: FilteredMeta },
  { title: 'Comment' },
);

/** Comments come with their authors (public users) in `included`. */
export const CommentAuthorSchema = PublicUserSchema;

const isVisible = ({ comment }: ListedComment) => comment.deletedAt === null && !comment.authorBanned;

export function presentComment(
  row: ListedComment & { filtered?: FilterResult[] },
  usernames: Map<string, string | null>,
  locale: Locale,
) {
  const { comment } = row;
  const shown = isVisible(row);
  return {
    type: 'comments',
    id: comment.id,
    attributes: {
      body: shown ? comment.body : null,
      deleted: !shown,
      placeholder: shown ? null : translate(locale, 'comments.placeholder'),
      depth: comment.depth,
      repliesCount: row.repliesCount,
      // Only mentions of users others may see: the view's usernames hold no one else.
      mentions: shown
        ? comment.mentions.filter((id) => usernames.has(id)).map((id) => ({ id, username: usernames.get(id) ?? null }))
        : [],
      hashtags: shown ? comment.hashtags : [],
      createdAt: formatTimestamp(comment.createdAt),
      editedAt: shown && comment.editedAt !== null ? formatTimestamp(comment.editedAt) : null,
    },
    relationships: {
      media: relation('media', comment.mediaId),
      author: relation('users', shown ? comment.authorId : null),
      parent: relation('comments', comment.parentId),
      root: relation('comments', comment.rootId),
    },
    ...filteredMeta(row.filtered ?? []),
  };
}

/** The comments of a view and, once each, the authors of the visible ones. */
export function presentComments({ rows, usernames }: CommentsView, locale: Locale) {
  const authors = new Map(rows.filter(isVisible).map((row) => [row.author.id, presentPublicUser(row.author)]));
  return { data: rows.map((row) => presentComment(row, usernames, locale)), included: [...authors.values()] };
}
