/** Bookmarks: a user's saved media, in collections or outside any, and media's bookmark counter. */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { BookmarksRepository } from './bookmarks.repository.ts';
import { bookmarksRoutes } from './bookmarks.routes.ts';
import { BookmarksService } from './bookmarks.service.ts';
import { BookmarksStatsRepository } from './bookmarks-stats.repository.ts';
import { CollectionsRepository } from './collections.repository.ts';
import { collectionsRoutes } from './collections.routes.ts';
import { CollectionsService } from './collections.service.ts';

export const bookmarksArea = defineArea({
  name: 'bookmarks',
  needs: ['accounts', 'media'],
  create({ transactions, events, clock, stats, exports }, { accounts, media }) {
    const repository = new BookmarksRepository(transactions);
    const collectionRows = new CollectionsRepository(transactions);
    exports.register({
      name: 'bookmarks',
      description: 'The photos you bookmarked, in which of your collections (none: outside any), and when.',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    exports.register({
      name: 'bookmark-collections',
      description: 'Your bookmark collections: their names and dates.',
      rows: (userId) => byId((after, limit) => collectionRows.exportRows(userId, after, limit)),
    });
    const bookmarkStats = new BookmarksStatsRepository(transactions);
    stats.register('bookmarks', (since) => bookmarkStats.bookmarks(since));
    media.mediaAdmin.addCounterSource(async (mediaId) => ({ bookmarksCount: await repository.countOfMedia(mediaId) }));
    // An erased account's bookmarks leave, and the counters of the media they were on move with them.
    events.subscribe('user.erasing', 'inTransaction', 'bookmarks.erase', async ({ userId }) => {
      for (const mediaId of await repository.eraseUser(userId)) {
        if (await media.media.lockForCounters(mediaId)) await media.media.adjustCounters(mediaId, { bookmarks: -1 });
      }
    });
    const bookmarkCollections = new CollectionsService(collectionRows, clock, transactions, accounts.users);
    return {
      bookmarks: new BookmarksService(transactions, events, repository, bookmarkCollections, media.media, clock),
      bookmarkCollections,
    };
  },
  routes: (app, services) =>
    registerRoutes(app, 'bookmarks', [...collectionsRoutes(services), ...bookmarksRoutes(services)]),
});
