/** The face of hashtags: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
import type { HashtagsService } from './hashtags.service.ts';

export interface HashtagsServices {
  hashtags: HashtagsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    hashtags: HashtagsServices;
  }
}
