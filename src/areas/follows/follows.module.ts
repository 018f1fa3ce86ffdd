/** Follows: who follows whom. A new follow publishes `follow.created` (notifications and gamification subscribe). */
import { defineArea } from '../../platform/modules/area-module.ts';
import { FollowsRepository } from './follows.repository.ts';
import { followsRoutes } from './follows.routes.ts';
import { FollowsService } from './follows.service.ts';
import { FollowsStatsRepository } from './follows-stats.repository.ts';

export interface FollowsServices {
  follows: FollowsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    follows: FollowsServices;
  }
}

export const followsArea = defineArea({
  name: 'follows',
  needs: ['accounts'],
  create({ transactions, events, clock, stats }, { accounts }) {
    const followStats = new FollowsStatsRepository(transactions);
    stats.register('follows', (since) => followStats.follows(since));
    return {
      follows: new FollowsService(transactions, events, new FollowsRepository(transactions), accounts.users, clock),
    };
  },
  routes: followsRoutes,
});
