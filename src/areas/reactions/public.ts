/** The face of reactions: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { ReactionsService } from './reactions.service.ts';

export interface ReactionsServices {
  reactions: ReactionsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    reactions: ReactionsServices;
  }
}

export type { ReactionsService } from './reactions.service.ts';
