/** Finding users by name, from the search index. */
import type { PageRequest } from '../../platform/db/page-request.ts';
import { isSearchable } from '../../platform/text/searchable.ts';
import type { UserSearchRepository } from './user-search.repository.ts';

export interface UserSearchServiceDeps {
  repository: UserSearchRepository;
}

export class UserSearchService {
  readonly #deps: UserSearchServiceDeps;

  constructor(deps: UserSearchServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Discoverable, active users matching `query` (already checked to be 1 to 50 characters). Names are
   * matched by their letters and digits: a query with neither matches nobody, and is answered without
   * a statement (isSearchable).
   */
  async search(query: string, page: PageRequest, viewerId: string | null = null) {
    if (!isSearchable(query)) return [];
    return this.#deps.repository.search(query, page, viewerId);
  }
}
