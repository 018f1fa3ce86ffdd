import { Type } from 'typebox';
import {
  Nullable,
  RelationshipSchema,
  ResourceSchema,
  relation,
  StringEnum,
  Timestamp,
} from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { OwnSocialFeed } from './social-feeds.repository.ts';
import type { SocialFeedRow } from './tables.ts';

const feedAttributes = {
  code: Type.String({ description: '12 base62 characters; the feed is public at /api/social-feeds/{code}' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  mode: StringEnum(['criteria', 'handPicked'], {
    description: '`criteria`: media matching every criterion given; `handPicked`: the chosen media',
  }),
  hashtags: Type.Array(Type.String(), { description: 'A media matches when it has at least one; [] for none' }),
  countryCode: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  cityId: Nullable(Type.String({ description: 'UUID of a city' })),
  createdAt: Timestamp,
};
const feedRelationships = Type.Object({ owner: RelationshipSchema('users') });

/** A feed as anyone sees it (the hand-picked ids stay with the owner). */
export const SocialFeedSchema = ResourceSchema(
  'socialFeeds',
  Type.Object(feedAttributes),
  feedRelationships,
  'SocialFeed',
);

/** The owner's view adds the hand-picked media ids. */
export const OwnSocialFeedSchema = ResourceSchema(
  'socialFeeds',
  Type.Object({
    ...feedAttributes,
    mediaIds: Type.Array(Type.String(), {
      description: 'The hand-picked media still existing, sorted; [] for a feed by criteria',
    }),
  }),
  feedRelationships,
  'OwnSocialFeed',
);

export function presentSocialFeed(feed: SocialFeedRow) {
  return {
    type: 'socialFeeds' as const,
    id: feed.id,
    attributes: {
      code: feed.code,
      name: feed.name,
      description: feed.description,
      mode: feed.handPicked ? ('handPicked' as const) : ('criteria' as const),
      hashtags: feed.hashtags ?? [],
      countryCode: feed.countryCode,
      cityId: feed.cityId,
      createdAt: formatTimestamp(feed.createdAt),
    },
    relationships: { owner: relation('users', feed.ownerId) },
  };
}

export function presentOwnSocialFeed(feed: OwnSocialFeed) {
  const base = presentSocialFeed(feed);
  return { ...base, attributes: { ...base.attributes, mediaIds: feed.mediaIds } };
}
