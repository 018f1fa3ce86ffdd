/** Topics: a seeded catalogue of travel topics and the ones each user follows (hashtagsOfUser for discovery). */
import { defineArea } from '../../platform/modules/area-module.ts';
import { TopicsRepository } from './topics.repository.ts';
import { topicsRoutes } from './topics.routes.ts';
import { TopicsService } from './topics.service.ts';

export interface TopicsServices {
  topics: TopicsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    topics: TopicsServices;
  }
}

export const topicsArea = defineArea({
  name: 'topics',
  needs: ['accounts'],
  create({ transactions, clock }, { accounts }) {
    return { topics: new TopicsService(transactions, new TopicsRepository(transactions), accounts.users, clock) };
  },
  routes: topicsRoutes,
});
