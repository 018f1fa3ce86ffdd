/**
 * Data export: GET /api/users/me/export streams a ZIP of the sections every area registers on
 * platform.exports (src/platform/exports), one export per user at a time across instances (a lease
 * row, export-leases.ts). Subscribes to user.erasing to drop the lease of an erased account.
 */
import '../accounts/events.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { DataExportRepository } from './data-export.repository.ts';
import { dataExportRoutes } from './data-export.routes.ts';
import { DataExportService } from './data-export.service.ts';
import { ExportLeases } from './export-leases.ts';

export const dataExportArea = defineArea({
  name: 'dataExport',
  needs: [],
  create({ transactions, events, clock, logger, exports }) {
    const leases = new ExportLeases(new DataExportRepository(transactions), clock, logger);
    events.subscribe('user.erasing', 'inTransaction', 'dataExport.erase', ({ userId }) => leases.dropOfUser(userId));
    return { dataExport: new DataExportService(exports, leases, clock, logger), leases };
  },
  routes: (app, services) => registerRoutes(app, 'account', dataExportRoutes(services)),
});
