/** The face of data-export: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
import type { DataExportService } from './data-export.service.ts';
import type { ExportLeases } from './export-leases.ts';

export interface DataExportServices {
  dataExport: DataExportService;
  leases: ExportLeases;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    dataExport: DataExportServices;
  }
}
