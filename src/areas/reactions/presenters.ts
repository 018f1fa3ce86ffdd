import { Type } from 'typebox';
import { RelationshipSchema, ResourceSchema, relation, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/public.ts';
import { FilteredSchema, type FilterResult, withFiltered } from '../filters/public.ts';
import { MediaSchema, presentMedia } from '../media/public.ts';
import type { ReactedMedia, ReactionWithCounts, Reactor } from './reactions.repository.ts';

export const ReactionTypeSchema = Type.Union([Type.Literal('like'), Type.Literal('dislike')], {
  description: '`like` or `dislike`',
});

/** The caller's reaction on a media, with the media's counters after the change. */
export const ReactionSchema = ResourceSchema(
  'reactions',
  Type.Object({
    reaction: ReactionTypeSchema,
    createdAt: Timestamp,
    likesCount: Type.Integer({ description: "the media's likes after this request" }),
    dislikesCount: Type.Integer({ description: "the media's dislikes after this request" }),
  }),
  Type.Object({ media: RelationshipSchema('media'), user: RelationshipSchema('users') }),
  'Reaction',
);

export function presentReaction({ reaction, likesCount, dislikesCount }: ReactionWithCounts) {
  return {
    type: 'reactions',
    id: reaction.id,
    attributes: { reaction: reaction.type, createdAt: formatTimestamp(reaction.createdAt), likesCount, dislikesCount },
    relationships: { media: relation('media', reaction.mediaId), user: relation('users', reaction.userId) },
  };
}

const ReactedAtMeta = Type.Object({ reactedAt: Timestamp });
const ReactedMediaMeta = Type.Object({ reactedAt: Timestamp, filtered: Type.Optional(FilteredSchema) });

/** A media in a list of likes or dislikes; `meta.reactedAt` says when. */
export const ReactedMediaSchema = Type.Object(
  { ...MediaSchema.properties, meta: ReactedMediaMeta },
  { title: 'reactedMedia' },
);

export function presentReactedMedia(row: ReactedMedia & { filtered?: FilterResult[] }, viewerId: string | null) {
  // `meta` set on the resource just made (a list presents twenty of these), not a copy of it.
  return Object.assign(presentMedia(row.media, viewerId), {
    meta: withFiltered({ reactedAt: formatTimestamp(row.reactedAt) }, row.filtered),
  });
}

/** A user in a media's likers or dislikers; `meta.reactedAt` says when. */
export const ReactorSchema = Type.Object({ ...PublicUserSchema.properties, meta: ReactedAtMeta }, { title: 'reactor' });

export function presentReactor(row: Reactor) {
  return { ...presentPublicUser(row.user), meta: { reactedAt: formatTimestamp(row.reactedAt) } };
}
