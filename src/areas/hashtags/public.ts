/** The face of hashtags: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { HashtagsService } from './hashtags.service.ts';

export interface HashtagsServices {
  hashtags: HashtagsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    hashtags: HashtagsServices;
  }
}
