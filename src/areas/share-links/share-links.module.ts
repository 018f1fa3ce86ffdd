/**
 * Share links: secret links to a post or a bookmark collection (and any kind another area registers on
 * `shareLinks.targets`) that open for people without an account, at GET /s/{token} (the web area's page).
 */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { collectionTarget, postTarget } from './built-in-targets.ts';
import { ShareLinksRepository } from './share-links.repository.ts';
import { shareLinksRoutes } from './share-links.routes.ts';
import { ShareLinksService } from './share-links.service.ts';
import { ShareTargets } from './share-targets.ts';

export const shareLinksArea = defineArea({
  name: 'shareLinks',
  needs: ['accounts', 'media', 'bookmarks'],
  create({ transactions, events, clock, exports }, { accounts, media, bookmarks }) {
    const repository = new ShareLinksRepository(transactions);
    const targets = new ShareTargets();
    targets.register('post', postTarget(media));
    targets.register('collection', collectionTarget(bookmarks));
    const shareLinks = new ShareLinksService({ transactions, repository, targets, users: accounts.users, clock });
    events.subscribe('user.erasing', 'inTransaction', 'shareLinks.erase', ({ userId }) => shareLinks.eraseUser(userId));
    exports.register({
      name: 'share-links',
      description:
        'Your share links: what each opens, its expiry, whether it has a password, its views (not the tokens).',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    return { shareLinks };
  },
  routes: (app, services) => registerRoutes(app, 'share-links', shareLinksRoutes(services)),
});
