/**
 * What other areas may read of media rows in their own queries: lists that join media (my likes, a
 * user's likes, my bookmarks) and must filter by media's visibility rules before paginating. Read
 * only: a change to a media row (its counters included) goes through MediaService. The rules are
 * those of src/areas/media/media-flags.ts; only posts are listed, never avatars or covers.
 */
import { and, eq, isNull, lt, or, type Placeholder, type SQL } from 'drizzle-orm';
import { allOf } from '../../platform/db/conditions.ts';
import { literal } from '../../platform/db/literals.ts';
import { blocksOnly, type ShownScope, shownTo } from '../accounts/read-model.ts';
import { mediaFlags } from './media-flags.ts';
import { type MediaRow, media } from './tables.ts';

/** The media rows, to join and select from (never to write). */
export const mediaRows = media;
export type { MediaRow };

/**
 * The columns a media list shows (presentMedia, presentOwnMedia): lists select these, not the whole
 * row, so each row costs the database driver and the mapping 26 columns instead of 37.
 */
export const listedMediaColumns = {
  id: media.id,
  ownerId: media.ownerId,
  kind: media.kind,
  published: media.published,
  flag: media.flag,
  ownerBanned: media.ownerBanned,
  describeStatus: media.describeStatus,
  authorSensitive: media.authorSensitive,
  contentWarning: media.contentWarning,
  contentWarningByModerator: media.contentWarningByModerator,
  description: media.description,
  hashtags: media.hashtags,
  originalFormat: media.originalFormat,
  width: media.width,
  height: media.height,
  latitude: media.latitude,
  longitude: media.longitude,
  locationPublic: media.locationPublic,
  cityId: media.cityId,
  countryCode: media.countryCode,
  takenAt: media.takenAt,
  likesCount: media.likesCount,
  dislikesCount: media.dislikesCount,
  bookmarksCount: media.bookmarksCount,
  commentsCount: media.commentsCount,
  createdAt: media.createdAt,
  postId: media.postId,
  photosCount: media.photosCount,
};
export type ListedMedia = Pick<MediaRow, keyof typeof listedMediaColumns>;

/**
 * The viewer: an id, null for nobody, or a placeholder of a prepared statement (filled with an id or
 * null: `owner_id = NULL` matches nothing, as no viewer should).
 */
export type ViewerRef = string | null | Placeholder;

/**
 * Listed on its own: not a member of a post (docs/api.md, Posts). A single photo and a post's lead are
 * listed; the other photos of a post are only shown within it. Every list of media holds this rule
 * (both rules below carry it).
 */
export const notPostMember: SQL = or(isNull(media.postId), eq(media.postId, media.id)) as SQL;

const ownedBy = (viewerId: ViewerRef) => (viewerId === null ? undefined : eq(media.ownerId, viewerId));

/**
 * The rules' constants are written into the statements (platform/db/literals.ts), so the planner
 * sees them. Both join accounts' rule of who the viewer may see (`shownTo` on the owner: blocks either
 * way always, the viewer's mutes where `scope` says); nothing of it for no viewer (null).
 *
 * Media the viewer may open: published, not hidden and of an owner not banned, or their own (the rule
 * of findVisibleMedia).
 */
export function mediaVisibleTo(viewerId: ViewerRef, scope: ShownScope = blocksOnly): SQL {
  return allOf(notPostMember, photoVisibleTo(viewerId, scope));
}

/**
 * A photo the viewer may open, a post's other photos included (a moderator's action on a post is
 * copied onto all of its photos): what shows the photos themselves, such as a trip's, rather than a
 * list of posts.
 */
export function photoVisibleTo(viewerId: ViewerRef, scope: ShownScope = blocksOnly): SQL {
  return allOf(
    eq(media.kind, literal('post')),
    or(
      and(
        eq(media.published, literal(true)),
        lt(media.flag, literal(mediaFlags.hidden)),
        eq(media.ownerBanned, literal(false)),
      ),
      ownedBy(viewerId),
    ),
    shownTo(viewerId, media.ownerId, scope),
  );
}

/**
 * Media that may appear in a public list shown to the viewer: published, not flagged and of an owner
 * not banned, or their own.
 */
export function mediaListedFor(viewerId: ViewerRef, scope: ShownScope = blocksOnly): SQL {
  return allOf(
    eq(media.kind, literal('post')),
    notPostMember,
    or(
      and(
        eq(media.published, literal(true)),
        lt(media.flag, literal(mediaFlags.sensitive)),
        eq(media.ownerBanned, literal(false)),
      ),
      ownedBy(viewerId),
    ),
    shownTo(viewerId, media.ownerId, scope),
  );
}

/**
 * The photos the public map shows (docs/api.md, Posts): one per post, at its first photo whose
 * position is public, so a post whose lead has no position is still on the map. A photo of its own,
 * published, not flagged and of an owner not banned, or the map photo of such a post (moderation of
 * the lead is carried to every photo of its post). The position rule itself is the map's.
 */
export const mediaOnMap: SQL = allOf(
  eq(media.kind, literal('post')),
  or(isNull(media.postId), eq(media.mapPhoto, literal(true))),
  eq(media.published, literal(true)),
  lt(media.flag, literal(mediaFlags.sensitive)),
  eq(media.ownerBanned, literal(false)),
);

/** The two rules by name, for statements prepared once per rule. */
export const mediaVisibility = { visible: mediaVisibleTo, listed: mediaListedFor } as const;
export type MediaVisibility = keyof typeof mediaVisibility;
