/** The face of tracking: its services, and what other areas may import of it (docs/development.md, How areas talk). */
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
