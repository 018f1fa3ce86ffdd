/** What the operators' user pages put together: the account (accounts.moderation) and what other areas count of it. */
import type { ModerationService } from '../accounts/public.ts';
import type { UserRow } from '../accounts/read-model.ts';
import type { FollowsService } from '../follows/public.ts';
import type { MediaService } from '../media/public.ts';

export interface UserCounts {
  media: number;
  followers: number;
  following: number;
  comments: number;
  reportsOpen: number;
  reportsTotal: number;
  liveSessions: number;
}

/** What comments and reports count of a user. */
export interface CountSources {
  commentsBy(userId: string): Promise<number>;
  reportsAgainst(userId: string): Promise<{ open: number; total: number }>;
}

export class UserAdminService {
  private readonly moderation: ModerationService;
  private readonly follows: FollowsService;
  private readonly media: MediaService;
  private readonly sources: CountSources;

  constructor(options: {
    moderation: ModerationService;
    follows: FollowsService;
    media: MediaService;
    sources: CountSources;
  }) {
    this.moderation = options.moderation;
    this.follows = options.follows;
    this.media = options.media;
    this.sources = options.sources;
  }

  async detail(userId: string): Promise<{ user: UserRow; counts: UserCounts }> {
    const user = await this.moderation.get(userId);
    const media = await this.media.countPostsOf(userId);
    const { followers, following } = await this.follows.counts(userId);
    const comments = await this.sources.commentsBy(userId);
    const reports = await this.sources.reportsAgainst(userId);
    const liveSessions = await this.moderation.countLiveSessions(userId);
    return {
      user,
      counts: {
        media,
        followers,
        following,
        comments,
        reportsOpen: reports.open,
        reportsTotal: reports.total,
        liveSessions,
      },
    };
  }
}
