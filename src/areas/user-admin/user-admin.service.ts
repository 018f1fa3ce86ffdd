/** What the operators' user pages put together: the account (accounts.moderation) and what other areas count of it. */
import type { ModerationService, TwoFactorService } from '../accounts/public.ts';
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

/** What operators see of a user's two-factor authentication: whether it is on, never its secrets. */
export interface AdminTwoFactor {
  enabled: boolean;
  enabledAt: Date | null;
}

export interface UserAdminServiceDeps {
  moderation: ModerationService;
  twoFactor: Pick<TwoFactorService, 'status'>;
  follows: FollowsService;
  media: MediaService;
  sources: CountSources;
}

export class UserAdminService {
  readonly #deps: UserAdminServiceDeps;

  constructor(deps: UserAdminServiceDeps) {
    this.#deps = deps;
  }

  async detail(userId: string): Promise<{ user: UserRow; counts: UserCounts; twoFactor: AdminTwoFactor }> {
    const user = await this.#deps.moderation.get(userId);
    const media = await this.#deps.media.countPostsOf(userId);
    const { followers, following } = await this.#deps.follows.counts(userId);
    const comments = await this.#deps.sources.commentsBy(userId);
    const reports = await this.#deps.sources.reportsAgainst(userId);
    const liveSessions = await this.#deps.moderation.countLiveSessions(userId);
    const { enabled, enabledAt } = await this.#deps.twoFactor.status(userId);
    return {
      user,
      twoFactor: { enabled, enabledAt },
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
