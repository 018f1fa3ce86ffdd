/** The face of reactions: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
import type { ReactionsService } from './reactions.service.ts';

export interface ReactionsServices {
  reactions: ReactionsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    reactions: ReactionsServices;
  }
}
