/** Reactions: likes and dislikes of media, their lists, and media's like/dislike counters. A like publishes `reaction.liked`. */
import { defineArea } from '../../platform/modules/area-module.ts';
import { ReactionsRepository } from './reactions.repository.ts';
import { reactionsRoutes } from './reactions.routes.ts';
import { ReactionsService } from './reactions.service.ts';
import { ReactionsStatsRepository } from './reactions-stats.repository.ts';

export interface ReactionsServices {
  reactions: ReactionsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    reactions: ReactionsServices;
  }
}

export const reactionsArea = defineArea({
  name: 'reactions',
  needs: ['accounts', 'media'],
  create({ transactions, events, clock, stats }, { accounts, media }) {
    const repository = new ReactionsRepository(transactions);
    const reactionStats = new ReactionsStatsRepository(transactions);
    stats.register('reactions', (since) => reactionStats.reactions(since));
    media.mediaAdmin.addCounterSource(async (mediaId) => {
      const { likes, dislikes } = await repository.countsOf(mediaId);
      return { likesCount: likes, dislikesCount: dislikes };
    });
    return {
      reactions: new ReactionsService(transactions, events, repository, media.media, accounts.accounts, clock),
    };
  },
  routes: reactionsRoutes,
});
