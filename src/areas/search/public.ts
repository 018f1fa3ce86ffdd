/** The face of search: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { SearchAdminService } from './search-admin.service.ts';
import type { SearchIndexService } from './search-index.service.ts';
import type { UserSearchService } from './user-search.service.ts';

export interface SearchServices {
  searchIndex: SearchIndexService;
  searchAdmin: SearchAdminService;
  userSearch: UserSearchService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    search: SearchServices;
  }
}
