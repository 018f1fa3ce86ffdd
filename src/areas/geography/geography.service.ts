/**
 * The reference data (regions, subregions, countries, cities), name search, and reverse geocoding
 * for other areas: `nearestCity` (media at upload, the backfill, discovery) and `cityById`.
 */

import { centimetreDegrees } from '../../platform/db/centimetre-degrees.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { isLowercaseUuid } from '../../platform/ids/ids.ts';
import { isSearchable } from '../../platform/text/searchable.ts';
import type { GeographyRepository, NearbyCity, ParentFilter, Scored } from './geography.repository.ts';
import { searchQuery } from './search-query.ts';
import type { CityRow, CountryRow, RegionRow, SubregionRow } from './tables.ts';

/** How far the nearest city may be for a point to be "in" it: farther, the point is at sea (or nowhere). */
export const reverseGeocodingRadiusMetres = 25_000;

/** What other areas read of a city. */
export interface GeoCity {
  id: string;
  name: string;
  asciiName: string;
  countryCode: string;
  adminCode: string | null;
  population: number;
  latitude: number;
  longitude: number;
}

const geoCity = ({ geonamesId: _, ...city }: CityRow): GeoCity => city;

/** The hits of a name search: none, without a statement, for a query with no letter or digit (isSearchable). */
async function searched<Row>(q: string, search: (query: string) => Promise<Scored<Row>[]>): Promise<Scored<Row>[]> {
  const query = searchQuery(q);
  return isSearchable(query) ? search(query) : [];
}

export interface GeographyServiceDeps {
  repository: GeographyRepository;
}

export class GeographyService {
  readonly #deps: GeographyServiceDeps;

  constructor(deps: GeographyServiceDeps) {
    this.#deps = deps;
  }

  regions(page: PageRequest): Promise<RegionRow[]> {
    return this.#deps.repository.listRegions(page);
  }

  region(code: number): Promise<RegionRow | null> {
    return this.#deps.repository.region(code);
  }

  subregions(filter: ParentFilter, page: PageRequest): Promise<SubregionRow[]> {
    return this.#deps.repository.listSubregions(filter, page);
  }

  subregion(code: number): Promise<SubregionRow | null> {
    return this.#deps.repository.subregion(code);
  }

  countries(filter: ParentFilter, page: PageRequest): Promise<CountryRow[]> {
    return this.#deps.repository.listCountries(filter, page);
  }

  /** By ISO 3166 alpha-2 or alpha-3 code, any case. */
  country(code: string): Promise<CountryRow | null> {
    return /^[A-Za-z]{2,3}$/.test(code) ? this.#deps.repository.country(code.toUpperCase()) : Promise.resolve(null);
  }

  /** Cities, most populated first; of one country (alpha-2 or alpha-3, any case) when given: none for an unknown one. */
  async cities(countryCode: string | null, page: PageRequest): Promise<CityRow[]> {
    if (countryCode === null) return this.#deps.repository.listCities(null, page);
    const country = await this.country(countryCode);
    return country === null ? [] : this.#deps.repository.listCities(country.alpha2, page);
  }

  city(id: string): Promise<CityRow | null> {
    return isLowercaseUuid(id) ? this.#deps.repository.city(id) : Promise.resolve(null);
  }

  searchRegions(q: string, limit: number): Promise<Scored<RegionRow>[]> {
    return searched(q, (query) => this.#deps.repository.searchRegions(query, limit));
  }

  searchSubregions(q: string, limit: number): Promise<Scored<SubregionRow>[]> {
    return searched(q, (query) => this.#deps.repository.searchSubregions(query, limit));
  }

  searchCountries(q: string, limit: number): Promise<Scored<CountryRow>[]> {
    return searched(q, (query) => this.#deps.repository.searchCountries(query, limit));
  }

  searchCities(q: string, limit: number): Promise<Scored<CityRow>[]> {
    return searched(q, (query) => this.#deps.repository.searchCities(query, limit));
  }

  /** A city by id (canonical lowercase UUID), or null for an unknown or malformed one. */
  async cityById(id: string): Promise<GeoCity | null> {
    const row = await this.city(id);
    return row === null ? null : geoCity(row);
  }

  /**
   * The city a point is in: of the cities within reverseGeocodingRadiusMetres, the nearest once
   * distances are scaled by each city's size (the repository says how), with its distance in metres;
   * null at sea, far from any city, or for a point that is not a valid latitude/longitude.
   */
  async nearestCity(latitude: number, longitude: number): Promise<(GeoCity & { distance: number }) | null> {
    const valid =
      Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
    if (!valid) return null;
    const found: NearbyCity | null = await this.#deps.repository.nearestCity(
      centimetreDegrees(latitude),
      centimetreDegrees(longitude),
      reverseGeocodingRadiusMetres,
    );
    return found === null ? null : { ...geoCity(found.city), distance: found.distance };
  }
}
