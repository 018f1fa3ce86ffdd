/**
 * Tracking: clicks on offers (the app's click route and the /go redirects), partners' conversion
 * postbacks, creators' commissions and the reports on them (docs/api.md, "Clicks, redirects and
 * commissions"). Offers come from the catalogue, media and their owners from media.
 */
import { keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { ClicksService } from './clicks.service.ts';
import { ConversionsService } from './conversions.service.ts';
import { TrackingRepository } from './tracking.repository.ts';
import { trackingRoutes } from './tracking.routes.ts';
import { TrackingStatsRepository } from './tracking-stats.repository.ts';

export const trackingArea = defineArea({
  name: 'tracking',
  needs: ['catalogue', 'media'],
  create({ transactions, events, audit, clock, stats, exports }, { catalogue, media }) {
    const repository = new TrackingRepository(transactions);
    const trackingRows = (userId: string, kind: 'clicks' | 'conversions' | 'earnings', key: string) =>
      keysetBatches(
        (after, limit) => repository.exportRows(userId, kind, after, limit),
        (row) => String(row[key]),
      );
    exports.register({
      name: 'clicks',
      description: 'The offers you clicked on while signed in, from which photo, and when.',
      rows: (userId) => trackingRows(userId, 'clicks', 'ref'),
    });
    exports.register({
      name: 'conversions',
      description:
        'Purchases partners reported after your clicks: amount and commission (minor units), currency, date.',
      rows: (userId) => trackingRows(userId, 'conversions', 'id'),
    });
    exports.register({
      name: 'earnings',
      description:
        'The commissions credited to you for purchases made through your photos (minor units), with their dates.',
      rows: (userId) => trackingRows(userId, 'earnings', 'id'),
    });
    const trackingStats = new TrackingStatsRepository(transactions);
    stats.register('trackingClicks', (since) => trackingStats.clicks(since));
    stats.register('trackingConversions', (since) => trackingStats.conversions(since));
    // An erased account: its clicks no longer name it as the viewer.
    events.subscribe('user.anonymized', 'inTransaction', 'tracking.forgetViewer', ({ userId }) =>
      repository.forgetViewer(userId),
    );
    events.subscribe('user.erasing', 'inTransaction', 'tracking.erase', ({ userId }) => repository.eraseUser(userId));
    return {
      clicks: new ClicksService(transactions, repository, catalogue.offers, media.media, clock),
      conversions: new ConversionsService(transactions, repository, audit, clock),
    };
  },
  routes: (app, services) => registerRoutes(app, 'tracking', trackingRoutes(services)),
});
