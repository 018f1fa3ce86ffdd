/** The face of topics: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { TopicsService } from './topics.service.ts';

export interface TopicsServices {
  topics: TopicsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    topics: TopicsServices;
  }
}
