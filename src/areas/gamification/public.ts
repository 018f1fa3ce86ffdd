/** The face of gamification: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { GamificationService } from './gamification.service.ts';

export interface GamificationServices {
  gamification: GamificationService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    gamification: GamificationServices;
  }
}

export type { GamificationService } from './gamification.service.ts';
export { presentProgress, presentUserBadge } from './presenters.ts';
