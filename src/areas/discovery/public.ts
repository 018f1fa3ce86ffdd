/** The face of discovery: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { GeoMediaService } from './geo-media.service.ts';

export interface DiscoveryServices {
  geoMedia: GeoMediaService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    discovery: DiscoveryServices;
  }
}

export { type GeoMediaService, trendingWindow } from './geo-media.service.ts';
