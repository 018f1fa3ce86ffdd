/** The face of reports: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { ReportHandlingService } from './admin/report-handling.service.ts';
import type { ReportsService } from './reports.service.ts';

export interface ReportsServices {
  reports: ReportsService;
  /** The operators' side: list, detail, resolution. */
  reportHandling: ReportHandlingService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    reports: ReportsServices;
  }
}

export type { ReportsService } from './reports.service.ts';
export { maxReportDetailsLength } from './reports.service.ts';
