/**
 * The catalogue: brands, establishments (sustainable-tourism places) and the offers the service earns
 * commissions on. Public read routes; rows come from the imports (imports/). Click tracking reads
 * offers through `offers.findForTracking`.
 */
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { BrandsRepository } from './brands.repository.ts';
import { BrandsService } from './brands.service.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { CatalogueStatsRepository } from './catalogue-stats.repository.ts';
import { EstablishmentsRepository } from './establishments.repository.ts';
import { EstablishmentsService } from './establishments.service.ts';
import { importCommands } from './imports/import.command.ts';
import { OffersRepository } from './offers.repository.ts';
import { OffersService } from './offers.service.ts';

export const catalogueArea = defineArea({
  name: 'catalogue',
  needs: ['geography'],
  create({ transactions, clock, stats }) {
    const counts = new CatalogueStatsRepository(transactions);
    stats.register('establishments', (since) => counts.establishments(since));
    stats.register('offers', (since) => counts.offers(since));
    const offersRepository = new OffersRepository(transactions);
    const brands = new BrandsService(new BrandsRepository(transactions), clock);
    return {
      brands,
      offers: new OffersService(offersRepository, clock),
      establishments: new EstablishmentsService(
        new EstablishmentsRepository(transactions),
        offersRepository,
        brands,
        clock,
      ),
    };
  },
  routes: (app, services) => registerRoutes(app, 'catalogue', catalogueRoutes(services)),
  cliCommands: importCommands,
});
