/**
 * The media visibility rules of src/areas/media/media-flags.ts as SQL conditions, for lists that join
 * media rows (my likes, a user's likes, my bookmarks) and must filter before paginating. Only posts
 * are listed; avatars and covers never are.
 */
import { and, eq, lt, or, type SQL } from 'drizzle-orm';
import { mediaFlags } from './media-flags.ts';
import { media } from './tables.ts';

const ownedBy = (viewerId: string | null) => (viewerId === null ? undefined : eq(media.ownerId, viewerId));

/** Media the viewer may open: published and not hidden, or their own (the rule of findVisibleMedia). */
export function mediaVisibleTo(viewerId: string | null): SQL {
  return and(
    eq(media.kind, 'post'),
    or(and(eq(media.published, true), lt(media.flag, mediaFlags.hidden)), ownedBy(viewerId)),
  )!;
}

/** Media that may appear in a public list shown to the viewer: published and not flagged, or their own. */
export function mediaListedFor(viewerId: string | null): SQL {
  return and(
    eq(media.kind, 'post'),
    or(and(eq(media.published, true), lt(media.flag, mediaFlags.sensitive)), ownedBy(viewerId)),
  )!;
}
