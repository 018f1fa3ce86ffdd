/**
 * Geography: the reference data (UN M49 regions and subregions, countries, GeoNames cities), loaded by
 * migrations 0300-0302 from npm data packages; its 12 public routes; and reverse geocoding for other
 * areas (`nearestCity`, `cityById`).
 */
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { GeographyRepository } from './geography.repository.ts';
import { geographyRoutes } from './geography.routes.ts';
import { GeographyService } from './geography.service.ts';

export const geographyArea = defineArea({
  name: 'geography',
  needs: [],
  create({ transactions }) {
    return { geography: new GeographyService(new GeographyRepository(transactions)) };
  },
  routes: (app, services) => registerRoutes(app, 'geography', geographyRoutes(services)),
});
