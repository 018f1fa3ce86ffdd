/**
 * Moderation flags (PUT /admin/media/{hex}/flag). The owner always sees their own media; the flag,
 * and a ban of the owner (PUT /admin/users/{hex}/ban), decide what everyone else sees. Documented in docs/api.md, Media administration.
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

/** What the rules read of a media row. */
export interface VisibilityFields {
  published: boolean;
  flag: number;
  /** The owner is banned: their media answer 404 to others and leave public lists until the ban ends. */
  ownerBanned: boolean;
}

/** Whether a viewer other than the owner may see the media at all. */
export const isPubliclyVisible = (row: VisibilityFields) =>
  row.published && row.flag < mediaFlags.hidden && !row.ownerBanned;

/** Whether the media may appear in public lists (a user's media, feeds, discovery). */
export const isPubliclyListed = (row: VisibilityFields) =>
  row.published && row.flag < mediaFlags.sensitive && !row.ownerBanned;
