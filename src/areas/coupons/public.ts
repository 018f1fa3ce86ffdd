/** The face of coupons: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { CouponsService } from './coupons.service.ts';

export interface CouponsServices {
  coupons: CouponsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    coupons: CouponsServices;
  }
}
