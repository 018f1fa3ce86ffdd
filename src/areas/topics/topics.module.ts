/** Topics: a seeded catalogue of travel topics and the ones each user follows (hashtagsOfUser for discovery). */
import { keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { TopicsRepository } from './topics.repository.ts';
import { topicsRoutes } from './topics.routes.ts';
import { TopicsService } from './topics.service.ts';

export const topicsArea = defineArea({
  name: 'topics',
  needs: ['accounts'],
  create({ transactions, events, clock, exports }, { accounts }) {
    const topicRows = new TopicsRepository(transactions);
    events.subscribe('user.erasing', 'inTransaction', 'topics.erase', ({ userId }) => topicRows.eraseUser(userId));
    exports.register({
      name: 'topics',
      description: 'The topics you follow, and since when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => topicRows.exportRows(userId, after, limit),
          (row) => row.topicId,
        ),
    });
    return { topics: new TopicsService(transactions, topicRows, accounts.users, clock) };
  },
  routes: (app, services) => registerRoutes(app, 'topics', topicsRoutes(services)),
});
