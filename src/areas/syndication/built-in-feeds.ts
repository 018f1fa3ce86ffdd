/**
 * The feeds syndication knows from the start: a profile (`/@{username}`: the user's publicly listed
 * posts, as GET /api/users/{userId}/media lists them to a visitor) and a hashtag (`/tags/{tag}`: the
 * publicly listed posts with that hashtag). The newest `feedEntries` of each; public content only.
 */
import { Type } from 'typebox';
import { firstPage } from '../../platform/db/page-request.ts';
import { type Locale, translate } from '../../platform/i18n/i18n.ts';
import { hashtagPattern } from '../../platform/text/hashtags.ts';
import { type AccountsServices, displayNameOf } from '../accounts/public.ts';
import type { MediaServices } from '../media/public.ts';
import { mediaVariantUrls } from '../media/public.ts';
import type { FeedEntry } from './feed.ts';
import type { FeedSource } from './feed-sources.ts';
import { embedPostPath, profilePagePath } from './paths.ts';
import type { AuthoredMedia, SyndicationRepository } from './syndication.repository.ts';

export const feedEntries = 20;
const titleLength = 100;

/** What a feed entry reads of media: the post, and its stored large variant. */
export type FeedMediaSources = Pick<MediaServices, 'media' | 'mediaVariants'>;
type Sources = FeedMediaSources;

/**
 * A photo as a feed entry; the enclosure's length is the stored large variant's (0 until rendered).
 * Other areas' feeds (a trip's) make their entries with it too.
 */
export async function entryOf(
  { media: row, author }: AuthoredMedia,
  sources: Sources,
  locale: Locale,
): Promise<FeedEntry> {
  const name = author.nickname ?? author.username ?? '';
  const firstLine = row.description?.trim().split('\n')[0]?.trim() ?? '';
  const title =
    firstLine === ''
      ? translate(locale, 'syndication.entry.untitled', { name })
      : firstLine.length > titleLength
        ? `${firstLine.slice(0, titleLength - 1)}…`
        : firstLine;
  const servable = await sources.media.findServableMedia(row.id);
  const stored = servable === null ? null : await sources.mediaVariants.stored(servable, 'large', 'webp');
  return {
    id: row.id,
    title,
    link: embedPostPath(row.id),
    summary: row.description,
    published: row.createdAt,
    updated: row.createdAt,
    author: name,
    enclosure: { url: mediaVariantUrls(row).large, type: 'image/webp', length: stored?.info.size ?? 0 },
  };
}

const entriesOf = (rows: AuthoredMedia[], sources: Sources, locale: Locale) =>
  Promise.all(rows.map((row) => entryOf(row, sources, locale)));

export function profileFeed({ users }: Pick<AccountsServices, 'users'>, sources: Sources): FeedSource {
  return {
    path: '/@{username}',
    param: {
      name: 'username',
      schema: Type.String({ minLength: 1, maxLength: 100, description: 'The username, any case' }),
    },
    summary: "a user's newest public photos",
    async load(username, locale) {
      const user = await users.findByUsername(username);
      if (user === null || user.username === null) return null;
      const page = await sources.media.listPublicPosts(user.id, firstPage(feedEntries, 'profile-feed'), null);
      const author = { username: user.username, nickname: user.nickname };
      const entries = await entriesOf(
        page.items.map((media) => ({ media, author })),
        sources,
        locale,
      );
      const name = displayNameOf(user);
      return {
        title: translate(locale, 'syndication.profile.title', { name, username: user.username }),
        description: translate(locale, 'syndication.profile.description', { name }),
        htmlPath: profilePagePath(user.username),
        selfPath: profilePagePath(user.username),
        updated: entries[0]?.published ?? user.createdAt,
        entries,
      };
    },
  };
}

export function hashtagFeed(repository: SyndicationRepository, sources: Sources): FeedSource {
  return {
    path: '/tags/{tag}',
    param: {
      name: 'tag',
      schema: Type.String({ pattern: hashtagPattern.source, description: 'The hashtag without #, any case' }),
    },
    summary: 'the newest public photos with a hashtag',
    async load(rawTag, locale) {
      const tag = rawTag.toLowerCase();
      const entries = await entriesOf(await repository.taggedMedia(tag, feedEntries), sources, locale);
      return {
        title: translate(locale, 'syndication.tag.title', { tag }),
        description: translate(locale, 'syndication.tag.description', { tag }),
        htmlPath: '/',
        selfPath: `/tags/${encodeURIComponent(tag)}`,
        updated: entries[0]?.published ?? new Date(0),
        entries,
      };
    },
  };
}
