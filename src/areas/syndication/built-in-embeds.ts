/**
 * The oEmbed kinds syndication knows from the start: a post (its card page, /embed/posts/{id}) and a
 * profile (/@{username}, or its card /embed/@{username}). A post is a `photo` answer when anyone may see
 * it plainly, a `rich` one (its card, which blurs it behind its warning) when its author marked it sensitive.
 */
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

export function postEmbeds(
  { users }: Pick<AccountsServices, 'users'>,
  { media }: Pick<MediaServices, 'media'>,
): OEmbedKind {
  return {
    match: (path) => segment(path, /^\/embed\/posts\/([0-9a-fA-F-]{32,36})\/?$/),
    async resolve(key, locale: Locale) {
      const id = parseUuidOrHex(key);
      const row = id === null ? null : await media.findVisibleMedia(id, null);
      if (row === null) return null;
      const owner = await users.find(row.ownerId);
      const author =
        owner !== null && isActiveUser(owner) && owner.username !== null
          ? { name: displayNameOf(owner), path: profilePagePath(owner.username) }
          : null;
      const { width, height } = row;
      return {
        type: row.authorSensitive ? 'rich' : 'photo',
        title: row.description?.trim() || translate(locale, 'syndication.entry.untitled', { name: author?.name ?? '' }),
        author,
        cardPath: embedPostPath(row.id),
        card: { width: postCardWidth, heightAt: (shown) => Math.round((shown * height) / width) + postCardText },
        image: { mediaId: row.id, originalFormat: row.originalFormat, width, height },
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
