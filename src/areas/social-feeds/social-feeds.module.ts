/** Social feeds: shareable selections over a user's own public media, found by an unguessable code. */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { SocialFeedsRepository } from './social-feeds.repository.ts';
import { socialFeedsRoutes } from './social-feeds.routes.ts';
import { SocialFeedsService } from './social-feeds.service.ts';

export const socialFeedsArea = defineArea({
  name: 'socialFeeds',
  needs: ['accounts', 'geography', 'filters'],
  create({ transactions, events, clock, exports }, { accounts, geography, filters }) {
    const repository = new SocialFeedsRepository(transactions);
    events.subscribe('user.erasing', 'inTransaction', 'socialFeeds.erase', ({ userId }) =>
      repository.eraseUser(userId),
    );
    exports.register({
      name: 'social-feeds',
      description: 'Your social feeds: name, code, criteria, and the photos you hand-picked.',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    return {
      socialFeeds: new SocialFeedsService({
        transactions,
        repository,
        users: accounts.users,
        filters: filters.filters,
        cities: geography.geography,
        clock,
      }),
    };
  },
  routes: (app, services) => registerRoutes(app, 'social-feeds', socialFeedsRoutes(services)),
});
