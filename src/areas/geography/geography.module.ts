/**
 * Geography: the reference data (UN M49 regions and subregions, countries, GeoNames cities), loaded by
 * migrations 0300-0302 from npm data packages; its 12 public routes; and reverse geocoding for other
 * areas (`nearestCity`, `cityById`).
 */
import { defineArea } from '../../platform/modules/area-module.ts';
import { GeographyRepository } from './geography.repository.ts';
import { geographyRoutes } from './geography.routes.ts';
import { GeographyService } from './geography.service.ts';

export interface GeographyServices {
  geography: GeographyService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    geography: GeographyServices;
  }
}

export const geographyArea = defineArea({
  name: 'geography',
  needs: [],
  create({ transactions }) {
    return { geography: new GeographyService({ repository: new GeographyRepository(transactions) }) };
  },
  routes: geographyRoutes,
});
