/** What reactions tell other areas. */
declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /**
     * A user now likes a media (a new like, or a dislike turned into a like). `firstLikeOfPair` is true
     * the first time this user likes this media, never again (unlike and like again), and never for a
     * like of one's own media. `likesReceived`: the likes on all the owner's media, after this one.
     */
    'reaction.liked': {
      likerId: string;
      mediaId: string;
      ownerId: string;
      firstLikeOfPair: boolean;
      likesReceived: number;
    };
  }
}
