/** The face of data-export: its services, and what other areas may import of it (docs/development.md, How areas talk). */
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
