/** The face of keyword filters: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { FiltersService } from './filters.service.ts';

export interface FiltersServices {
  filters: FiltersService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    filters: FiltersServices;
  }
}

export type { FilterContext } from './filter-rules.ts';
export type { FiltersService } from './filters.service.ts';
export { FilteredMeta, FilteredSchema, filteredMeta, withFiltered } from './presenters.ts';
export type { FilterResult } from './viewer-filters.ts';
