/**
 * The oEmbed kinds syndication knows from the start: a post (its page /posts/{id}, or its card
 * /embed/posts/{id}) and a profile (/@{username}, or its card /embed/@{username}). A post of one photo
 * anyone may see plainly is a `photo` answer; a post of several photos, or one its author marked
 * sensitive, a `rich` one (its card: the carousel, or the photo behind its warning), whose thumbnail is
 * its first photo.
 */

import { AppError } from '../../platform/http/error-catalogue.ts';
import { type Locale, translate } from '../../platform/i18n/i18n.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import { type AccountsServices, displayNameOf } from '../accounts/public.ts';
import { isActiveUser } from '../accounts/read-model.ts';
import type { MediaServices } from '../media/public.ts';
import type { OEmbedKind } from './oembed-kinds.ts';
import { embedPostPath, embedProfilePath, profilePagePath } from './paths.ts';

const segment = (path: string, pattern: RegExp): string | null => {
  const match = pattern.exec(path);
  if (match?.[1] === undefined) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
};

/** A post's card: 500 pixels wide at most, the photo at its width and three lines of text under it. */
const postCardWidth = 500;
const postCardText = 130;
/** A post of several photos adds its carousel's numbered links and its "N photos" line. */
const carouselLines = 70;

const notFoundAsNull = (error: unknown) => {
  if (error instanceof AppError && error.code === 'notFound') return null;
  throw error;
};

export function postEmbeds(
  { users }: Pick<AccountsServices, 'users'>,
  { posts }: Pick<MediaServices, 'posts'>,
): OEmbedKind {
  return {
    // The post's page and its card; a member photo's id names its post (GET /api/posts/{postId} does too).
    match: (path) => segment(path, /^(?:\/embed)?\/posts\/([0-9a-fA-F-]{32,36})\/?$/),
    async resolve(key, locale: Locale) {
      const post = parseUuidOrHex(key) === null ? null : await posts.find(key, null).catch(notFoundAsNull);
      const first = post?.photos[0];
      if (post === null || first === undefined) return null;
      const { lead, photos } = post;
      const owner = await users.find(lead.ownerId);
      const author =
        owner !== null && isActiveUser(owner) && owner.username !== null
          ? { name: displayNameOf(owner), path: profilePagePath(owner.username) }
          : null;
      const several = photos.length > 1;
      const shown = several ? photos : [lead];
      return {
        type: lead.authorSensitive || several ? 'rich' : 'photo',
        title:
          lead.description?.trim() || translate(locale, 'syndication.entry.untitled', { name: author?.name ?? '' }),
        author,
        cardPath: embedPostPath(lead.id),
        card: {
          width: postCardWidth,
          heightAt: (width) =>
            Math.max(...shown.map((photo) => Math.round((width * photo.height) / photo.width))) +
            postCardText +
            (several ? carouselLines : 0),
        },
        image: { mediaId: first.id, originalFormat: first.originalFormat, width: first.width, height: first.height },
      };
    },
  };
}

export function profileEmbeds(
  { users }: Pick<AccountsServices, 'users'>,
  { media }: Pick<MediaServices, 'media'>,
): OEmbedKind {
  return {
    match: (path) => segment(path, /^(?:\/embed)?\/@([^/.]{1,100})\/?$/),
    async resolve(username, locale: Locale) {
      const user = await users.findByUsername(username);
      if (user === null || user.username === null) return null;
      const avatar = user.avatarMediaId === null ? null : await media.findServableMedia(user.avatarMediaId);
      const name = displayNameOf(user);
      return {
        type: 'rich',
        title: translate(locale, 'syndication.profile.title', { name, username: user.username }),
        author: { name, path: profilePagePath(user.username) },
        cardPath: embedProfilePath(user.username),
        card: { width: 400, heightAt: () => 260 },
        image:
          avatar === null
            ? null
            : { mediaId: avatar.id, originalFormat: avatar.originalFormat, width: avatar.width, height: avatar.height },
      };
    },
  };
}
