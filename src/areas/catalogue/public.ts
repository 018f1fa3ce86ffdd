/** The face of catalogue: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { BrandsService } from './brands.service.ts';
import type { EstablishmentsService } from './establishments.service.ts';
import type { OffersService } from './offers.service.ts';

export interface CatalogueServices {
  establishments: EstablishmentsService;
  offers: OffersService;
  brands: BrandsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    catalogue: CatalogueServices;
  }
}

export type { EstablishmentsService } from './establishments.service.ts';
export { localized } from './localized.ts';
