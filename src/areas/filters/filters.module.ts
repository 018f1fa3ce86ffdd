/** Keyword filters: a user's words that hide, or warn about, what they read (docs/api.md, Keyword filters). */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { FiltersRepository } from './filters.repository.ts';
import { filtersRoutes } from './filters.routes.ts';
import { FiltersService } from './filters.service.ts';
import { FiltersCache } from './filters-cache.ts';

export const filtersArea = defineArea({
  name: 'filters',
  needs: ['accounts'],
  create({ transactions, events, clock, exports, caches, broadcast }, { accounts }) {
    const repository = new FiltersRepository(transactions);
    const cache = new FiltersCache({ clock, broadcast, transactions });
    caches.register('filters.ofViewer', cache);
    exports.register({
      name: 'filters',
      description: 'Your keyword filters: title, contexts, action, expiry and keywords.',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    events.subscribe('user.erasing', 'inTransaction', 'filters.erase', async ({ userId }) => {
      await repository.eraseUser(userId);
      await cache.changed(userId);
    });
    return { filters: new FiltersService({ transactions, repository, cache, users: accounts.users, clock }) };
  },
  routes: (app, services) => registerRoutes(app, 'filters', filtersRoutes(services)),
});
