/**
 * Discovery: media by place (nearby, recommended around a centre, trending in a country) and the map
 * (a box's media or its clusters). It reads media, their owners and likes through those areas'
 * read models, the viewer's birth city through accounts and geography, their topics through topics.
 * Media events keep the map's precomputed clusters current, likes their representatives
 * (map-cell-counts.service.ts); the daily job map-clusters repairs what no event told.
 */

import { registerRoutes } from '../../platform/http/route.ts';
import { dailyAt } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { GeoMediaRepository } from './geo-media.repository.ts';
import { geoMediaRoutes } from './geo-media.routes.ts';
import { GeoMediaService, type ViewerProfile } from './geo-media.service.ts';
import { MapCellCountsRepository } from './map-cell-counts.repository.ts';
import { MapCellCountsService } from './map-cell-counts.service.ts';
import { subscribeMapCells } from './map-cell-subscriptions.ts';
import { MapCellsRepository } from './map-cells.repository.ts';
import { MapCellsRepairRepository } from './map-cells-repair.repository.ts';
import { NearbyRepository } from './nearby.repository.ts';

export const discoveryArea = defineArea({
  name: 'discovery',
  needs: ['accounts', 'geography', 'topics', 'filters'],
  create({ transactions, events, jobs, clock, caches }, { accounts, geography, topics, filters }) {
    const viewers: ViewerProfile = {
      birthCity: async (userId) => {
        const cityId = await accounts.settings.birthCityId(userId);
        return cityId === null ? null : geography.geography.cityById(cityId);
      },
      topicHashtags: (userId) => topics.topics.hashtagsOfUser(userId),
      hiddenFrom: (viewerId) => accounts.users.hiddenFrom(viewerId, 'content'),
    };
    const cells = new MapCellsRepository(transactions);
    subscribeMapCells(
      events,
      new MapCellCountsService({ transactions, repository: new MapCellCountsRepository(transactions) }),
    );
    // Daily, as the other repairs: the writes and likes keep the cells current, the job repairs only
    // what was written behind the service's back (an operator flushes it after such a write).
    const repair = new MapCellsRepairRepository(transactions);
    jobs.register('map-clusters', {
      schedule: dailyAt(4, 15),
      run: () => transactions.run(() => repair.repair()),
    });
    const geoMedia = new GeoMediaService({
      media: new GeoMediaRepository(transactions),
      nearby: new NearbyRepository(transactions),
      cells,
      viewers,
      filters: filters.filters,
      clock,
    });
    caches.register('discovery.trending', geoMedia.trendingCache);
    return { geoMedia };
  },
  routes: (app, services) => registerRoutes(app, 'discovery', geoMediaRoutes(services)),
});
