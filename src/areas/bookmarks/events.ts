/** What bookmarks tell other areas. */
declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /** A user bookmarked a media; `bookmarksSaved`: how many bookmarks the user has now. */
    'bookmark.created': { userId: string; mediaId: string; bookmarksSaved: number };
  }
}
