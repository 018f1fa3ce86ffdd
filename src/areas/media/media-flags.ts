/**
 * Moderation flags (PUT /admin/media/{hex}/flag). The owner always sees their own media; the flag
 * decides what everyone else sees. Documented in docs/api.md, Media administration.
 */
export const mediaFlags = {
  /** Nothing to say: shown wherever it is published. */
  none: 0,
  /** Sensitive: reachable by its own link and id, but left out of public lists (a user's media, feeds, discovery). */
  sensitive: 1,
  /** Hidden: answers 404 to everyone but its owner, files included. */
  hidden: 2,
} as const;

export const maxMediaFlag = mediaFlags.hidden;

/** Whether a viewer other than the owner may see the media at all. */
export const isPubliclyVisible = (row: { published: boolean; flag: number }) =>
  row.published && row.flag < mediaFlags.hidden;

/** Whether the media may appear in public lists (a user's media, feeds, discovery). */
export const isPubliclyListed = (row: { published: boolean; flag: number }) =>
  row.published && row.flag < mediaFlags.sensitive;
