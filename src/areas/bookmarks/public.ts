/** The face of bookmarks: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { BookmarksService } from './bookmarks.service.ts';
import type { CollectionsService } from './collections.service.ts';

export interface BookmarksServices {
  bookmarks: BookmarksService;
  bookmarkCollections: CollectionsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    bookmarks: BookmarksServices;
  }
}
