/** The face of geography: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { GeographyService } from './geography.service.ts';

export interface GeographyServices {
  geography: GeographyService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    geography: GeographyServices;
  }
}

export type { GeographyService } from './geography.service.ts';
