/** The face of tracking: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
import type { ClicksService } from './clicks.service.ts';
import type { ConversionsService } from './conversions.service.ts';

export interface TrackingServices {
  clicks: ClicksService;
  conversions: ConversionsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    tracking: TrackingServices;
  }
}
