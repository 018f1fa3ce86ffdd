/** Bookmarks: a user's saved media, in collections or outside any, and media's bookmark counter. */
import { defineArea } from '../../platform/modules/area-module.ts';
import { BookmarksRepository } from './bookmarks.repository.ts';
import { bookmarksRoutes } from './bookmarks.routes.ts';
import { BookmarksService } from './bookmarks.service.ts';
import { BookmarksStatsRepository } from './bookmarks-stats.repository.ts';
import { CollectionsRepository } from './collections.repository.ts';
import { collectionsRoutes } from './collections.routes.ts';
import { CollectionsService } from './collections.service.ts';

export interface BookmarksServices {
  bookmarks: BookmarksService;
  bookmarkCollections: CollectionsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    bookmarks: BookmarksServices;
  }
}

export const bookmarksArea = defineArea({
  name: 'bookmarks',
  needs: ['accounts', 'media'],
  create({ transactions, events, clock, stats }, { accounts, media }) {
    const repository = new BookmarksRepository(transactions);
    const bookmarkStats = new BookmarksStatsRepository(transactions);
    stats.register('bookmarks', (since) => bookmarkStats.bookmarks(since));
    media.mediaAdmin.addCounterSource(async (mediaId) => ({ bookmarksCount: await repository.countOfMedia(mediaId) }));
    const bookmarkCollections = new CollectionsService(
      new CollectionsRepository(transactions),
      clock,
      transactions,
      accounts.users,
    );
    return {
      bookmarks: new BookmarksService(transactions, events, repository, bookmarkCollections, media.media, clock),
      bookmarkCollections,
    };
  },
  routes(app, services) {
    collectionsRoutes(app, services);
    bookmarksRoutes(app, services);
  },
});
