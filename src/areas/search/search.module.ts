/**
 * Search: a derived index of users and media posts (search_documents), kept current on writes by the
 * owners' events in their transactions, rebuilt by the admin reindex routes and repaired once a day
 * by the search-index job.
 * GET /api/users/search answers from it.
 */

import { registerRoutes } from '../../platform/http/route.ts';
import { dailyAt } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { IndexRepository } from './index.repository.ts';
import { searchAdminRoutes } from './search.admin-routes.ts';
import { SearchAdminService } from './search-admin.service.ts';
import { SearchIndexService } from './search-index.service.ts';
import { subscribeToSources } from './subscriptions.ts';
import { UserSearchRepository } from './user-search.repository.ts';
import { userSearchRoutes } from './user-search.routes.ts';
import { UserSearchService } from './user-search.service.ts';

export const searchArea = defineArea({
  name: 'search',
  needs: ['accounts', 'media'],
  create({ transactions, events, audit, jobs, clock, logger }) {
    const indexRepository = new IndexRepository(transactions);
    const searchIndex = new SearchIndexService({ transactions, repository: indexRepository, clock, logger });
    subscribeToSources(events, searchIndex);
    events.subscribe('user.erasing', 'inTransaction', 'search.erase', ({ userId }) =>
      indexRepository.eraseUser(userId),
    );
    // Once a day: every write of the service moves its documents in its own transaction, so the repair
    // only finds rows written behind the service's back, and it reads every source and document to
    // find them (20 s of PostgreSQL at a million media). After such a write, flush the job.
    jobs.register('search-index', { schedule: dailyAt(3, 15), run: () => searchIndex.repair() });
    return {
      searchIndex,
      searchAdmin: new SearchAdminService({ transactions, audit, index: searchIndex }),
      userSearch: new UserSearchService({ repository: new UserSearchRepository(transactions) }),
    };
  },
  routes(app, services) {
    registerRoutes(app, 'users', userSearchRoutes(services));
    registerRoutes(app, 'admin', searchAdminRoutes(services));
  },
});
