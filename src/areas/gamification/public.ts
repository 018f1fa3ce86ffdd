/** The face of gamification: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
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
