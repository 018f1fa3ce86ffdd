/** The face of follows: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { FollowsService } from './follows.service.ts';

export interface FollowsServices {
  follows: FollowsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    follows: FollowsServices;
  }
}

export type { FollowsService } from './follows.service.ts';
