/**
 * Tracking: clicks on offers (the app's click route and the /go redirects), partners' conversion
 * postbacks, creators' commissions and the reports on them (docs/api.md, "Clicks, redirects and
 * commissions"). Offers come from the catalogue, media and their owners from media.
 */
import { defineArea } from '../../platform/modules/area-module.ts';
import { ClicksService } from './clicks.service.ts';
import { ConversionsService } from './conversions.service.ts';
import { TrackingRepository } from './tracking.repository.ts';
import { trackingRoutes } from './tracking.routes.ts';
import { TrackingStatsRepository } from './tracking-stats.repository.ts';

export interface TrackingServices {
  clicks: ClicksService;
  conversions: ConversionsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    tracking: TrackingServices;
  }
}

export const trackingArea = defineArea({
  name: 'tracking',
  needs: ['catalogue', 'media'],
  create({ transactions, events, audit, clock, stats }, { catalogue, media }) {
    const repository = new TrackingRepository(transactions);
    const trackingStats = new TrackingStatsRepository(transactions);
    stats.register('trackingClicks', (since) => trackingStats.clicks(since));
    stats.register('trackingConversions', (since) => trackingStats.conversions(since));
    // An erased account: its clicks no longer name it as the viewer.
    events.subscribe('user.anonymized', 'inTransaction', 'tracking.forgetViewer', ({ userId }) =>
      repository.forgetViewer(userId),
    );
    return {
      clicks: new ClicksService(transactions, repository, catalogue.offers, media.media, clock),
      conversions: new ConversionsService(transactions, repository, audit, clock),
    };
  },
  routes: trackingRoutes,
});
