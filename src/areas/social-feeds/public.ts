/** The face of social-feeds: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { SocialFeedsService } from './social-feeds.service.ts';

export interface SocialFeedsServices {
  socialFeeds: SocialFeedsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    socialFeeds: SocialFeedsServices;
  }
}
