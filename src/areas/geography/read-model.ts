/**
 * What other areas may read of geography in their own queries (never write): the cities, e.g. to show
 * a user's birth city or a media's city in the same statement as the row that names it.
 */
import { cities, countries } from './tables.ts';

export const cityRows = cities;
export const countryRows = countries;
export type { CityRow, CountryRow } from './tables.ts';
