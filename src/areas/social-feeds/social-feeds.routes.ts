/** Social feeds: mine (create, list, delete) and anyone's by its code (the feed and its media). */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { hashtagPattern } from '../../platform/text/hashtags.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/public.ts';
import { ListedMediaSchema, presentListedMedia } from '../media/public.ts';
import { feedLimits } from './feed-selection.ts';
import { OwnSocialFeedSchema, presentOwnSocialFeed, presentSocialFeed, SocialFeedSchema } from './presenters.ts';
import type { SocialFeedsServices } from './public.ts';
import { feedMediaKeyset, ownFeedsKeyset } from './social-feeds.repository.ts';

const mine = '/api/users/me/social-feeds';
const code = { code: Type.String({ description: 'The feed code: 12 base62 characters' }) };

const FeedBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: feedLimits.nameMaxLength,
      description: `1 to ${feedLimits.nameMaxLength} characters once trimmed`,
    }),
    description: Type.Optional(
      Nullable(Type.String({ description: `At most ${feedLimits.descriptionMaxLength} characters once trimmed` })),
    ),
    hashtags: Type.Optional(
      Nullable(
        Type.Array(Type.String({ pattern: hashtagPattern.source.replace('^', '^#?') }), {
          maxItems: feedLimits.maxHashtags,
          description: "Media with at least one of these hashtags ('#' optional, any case)",
        }),
      ),
    ),
    countryCode: Type.Optional(Nullable(Type.String({ description: 'ISO 3166-1 alpha-2, any case' }))),
    cityId: Type.Optional(Nullable(Type.String({ description: 'UUID of a city' }))),
    mediaIds: Type.Optional(
      Nullable(
        Type.Array(Type.String({ maxLength: 64 }), {
          maxItems: feedLimits.maxMediaIds,
          description: 'Hand-picked posts of mine (UUID or 32 hex digits); not with hashtags, countryCode or cityId',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export function socialFeedsRoutes({ socialFeeds }: Pick<SocialFeedsServices, 'socialFeeds'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: mine,
      auth: 'user',
      summary: `Publish a social feed over my public media (at most ${feedLimits.maxFeedsPerUser} feeds)`,
      body: FeedBody,
      errors: ['conflict'],
      success: { status: 201, schema: DocumentSchema(OwnSocialFeedSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentOwnSocialFeed(await socialFeeds.create(viewer.userId, body)),
      }),
    }),
    route({
      method: 'GET',
      path: mine,
      auth: 'user',
      summary: 'My social feeds, newest first',
      page: { keyset: ownFeedsKeyset },
      success: {
        status: 200,
        schema: CollectionSchema(OwnSocialFeedSchema, { maxFeeds: Type.Integer() }),
      },
      handler: async ({ viewer, page, links }) => {
        const feeds = await socialFeeds.listOfOwner(viewer.userId, page);
        return listDocument(feeds, { page, links }, ownFeedsKeyset, presentOwnSocialFeed, {
          maxFeeds: feedLimits.maxFeedsPerUser,
        });
      },
    }),
    route({
      method: 'DELETE',
      path: `${mine}/{code}`,
      auth: 'user',
      summary: 'Delete one of my social feeds (its link stops working)',
      params: code,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => socialFeeds.delete(viewer.userId, params.code),
    }),
    route({
      method: 'GET',
      path: '/api/social-feeds/{code}',
      auth: 'optional',
      summary: "A social feed's media, newest first; the feed in meta.feed, its owner in included",
      params: code,
      page: { keyset: feedMediaKeyset },
      errors: ['notFound'],
      success: {
        status: 200,
        schema: CollectionSchema(ListedMediaSchema, { feed: SocialFeedSchema }, PublicUserSchema),
      },
      handler: async ({ viewer, params, page, links }) => {
        const viewerId = viewer?.userId ?? null;
        const { feed, owner, media } = await socialFeeds.published(params.code, page, viewerId);
        return {
          data: media.items.map((row) => presentListedMedia(row, viewerId)),
          included: [presentPublicUser(owner)],
          meta: { limit: page.limit, feed: presentSocialFeed(feed) },
          links: links(media),
        };
      },
    }),
  ];
}
