/** What comments tell other areas. */
declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /**
     * A new comment (or reply) on a media. `parentAuthorId`: the author of the comment it answers (null
     * at top level); `mentions`: the mentioned users' ids; `commentsWritten`: the author's comments that
     * are not deleted, this one included.
     */
    'comment.created': {
      commentId: string;
      mediaId: string;
      mediaOwnerId: string;
      authorId: string;
      parentAuthorId: string | null;
      mentions: string[];
      commentsWritten: number;
    };
  }
}

export {};
