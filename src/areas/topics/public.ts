/** The face of topics: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
import type { TopicsService } from './topics.service.ts';

export interface TopicsServices {
  topics: TopicsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    topics: TopicsServices;
  }
}
