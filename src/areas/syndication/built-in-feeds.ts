/**
 * The feeds syndication knows from the start: a profile (`/@{username}`: the user's publicly listed
 * posts, as GET /api/users/{userId}/posts lists them to a visitor) and a hashtag (`/tags/{tag}`: the
 * publicly listed posts with that hashtag). The newest `feedEntries` of each, one entry per post (a
 * photo of a post of several is never an entry of its own) with every photo anyone may see of it; public
 * content only.
 */
import { Type } from 'typebox';
import { firstPage } from '../../platform/db/page-request.ts';
import { returned } from '../../platform/db/returned.ts';
import { type Locale, translate } from '../../platform/i18n/i18n.ts';
import { hashtagPattern } from '../../platform/text/hashtags.ts';
import { type AccountsServices, displayNameOf } from '../accounts/public.ts';
import type { MediaServices, Post } from '../media/public.ts';
import { mediaVariantUrls } from '../media/public.ts';
import type { FeedEntry } from './feed.ts';
import type { FeedSource } from './feed-sources.ts';
import { postPagePath, profilePagePath } from './paths.ts';
import type { AuthoredMedia, SyndicationRepository } from './syndication.repository.ts';

export const feedEntries = 20;
const titleLength = 100;

type Sources = Pick<MediaServices, 'posts' | 'mediaVariants'>;
type Author = AuthoredMedia['author'];

/** A post as a feed entry; each enclosure's length is the stored large variant's (0 until rendered). */
async function entryOf({ lead, photos }: Post, author: Author, sources: Sources, locale: Locale): Promise<FeedEntry> {
  const name = author.nickname ?? author.username ?? '';
  const firstLine = lead.description?.trim().split('\n')[0]?.trim() ?? '';
  const title =
    firstLine === ''
      ? translate(locale, 'syndication.entry.untitled', { name })
      : firstLine.length > titleLength
        ? `${firstLine.slice(0, titleLength - 1)}…`
        : firstLine;
  const enclosures = await Promise.all(
    photos.map(async (photo) => {
      const stored = await sources.mediaVariants.stored(photo, 'large', 'webp');
      return { url: mediaVariantUrls(photo).large, type: 'image/webp', length: stored?.info.size ?? 0 };
    }),
  );
  return {
    id: lead.id,
    title,
    link: postPagePath(lead.id),
    summary: lead.description,
    published: lead.createdAt,
    updated: lead.createdAt,
    author: name,
    enclosures,
  };
}

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
      const page = await sources.posts.listOf(user.id, firstPage(feedEntries, 'profile-feed'), null);
      const author = { username: user.username, nickname: user.nickname };
      const entries = await Promise.all(page.items.map((post) => entryOf(post, author, sources, locale)));
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
      const tagged = await repository.taggedMedia(tag, feedEntries);
      const posts = await sources.posts.publicPostsOf(tagged.map((row) => row.media));
      const entries = await Promise.all(
        posts.map((post, index) => entryOf(post, returned(tagged[index], 'tagged post').author, sources, locale)),
      );
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
