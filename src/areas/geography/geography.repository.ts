/** All SQL of geography: the reference lists, look-ups by code or id, name search and reverse geocoding. */
import { type AnyColumn, and, asc, between, desc, eq, getTableColumns, or, sql } from 'drizzle-orm';
import { greatCircleMetres } from '../../platform/db/great-circle.ts';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import { likePrefix } from '../../platform/db/like.ts';
import { inSpans, longitudeSpans } from '../../platform/db/longitude-spans.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { byKey, PreparedPage, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { degreeBoxAround, spansOf } from './degree-box.ts';
import {
  type CityRow,
  type CountryRow,
  cities,
  countries,
  type RegionRow,
  regions,
  type SubregionRow,
  subregions,
} from './tables.ts';

/** Countries by alpha-2 code A to Z (keysets run descending: the key is the code's negated rank). */
const alpha2Rank = sql`(-(ascii(substr(${countries.alpha2}, 1, 1)) * 256 + ascii(substr(${countries.alpha2}, 2, 1))))`;
const rankOfAlpha2 = (code: string) => -(code.charCodeAt(0) * 256 + code.charCodeAt(1));

export const countriesKeyset = defineKeyset<CountryRow>({
  name: 'countries',
  shape: ['int'],
  columns: [alpha2Rank],
  keyOf: (row) => [rankOfAlpha2(row.alpha2)],
});

/** Regions and subregions by M49 code, lowest first. */
export const regionsKeyset = defineKeyset<RegionRow>({
  name: 'regions',
  shape: ['int'],
  columns: [sql`(-${regions.code})`],
  keyOf: (row) => [-row.code],
});

export const subregionsKeyset = defineKeyset<SubregionRow>({
  name: 'subregions',
  shape: ['int'],
  columns: [sql`(-${subregions.code})`],
  keyOf: (row) => [-row.code],
});

/** Cities, most populated first (ties by id). */
export const citiesKeyset = defineKeyset<CityRow>({
  name: 'cities',
  shape: ['int', 'uuid'],
  columns: [cities.population, cities.id],
  keyOf: (row) => [row.population, row.id],
});

export interface ParentFilter {
  region?: number;
  subregion?: number;
}

/** A ranked search hit: the row and how close its name is to the query (0 to 1). */
export interface Scored<Row> {
  row: Row;
  score: number;
}

/** A city near a point, with its distance in metres. */
export interface NearbyCity {
  city: CityRow;
  distance: number;
}

const fold = (column: AnyColumn) => sql`geo_fold(${column})`;
/** The folded query as a LIKE prefix; the routes already refuse %, _ and \, this keeps it true whatever unaccent maps. */
const prefixOf = (q: string) => likePrefix(sql`geo_fold(${q})`);
/** Name matches: typo-tolerant (pg_trgm `%`) or a prefix, both served by the trigram indexes. */
const nameMatches = (column: AnyColumn, q: string) =>
  sql`(${fold(column)} % geo_fold(${q}) OR ${fold(column)} LIKE ${prefixOf(q)})`;
const similarityTo = (column: AnyColumn, q: string) => sql<number>`similarity(${fold(column)}, geo_fold(${q}))`;

export class GeographyRepository extends Repository {
  // ---- regions and subregions ----

  async listRegions(page: PageRequest): Promise<RegionRow[]> {
    const { where, orderBy } = keyset(regionsKeyset, page);
    return this.replicaDb
      .select()
      .from(regions)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async region(code: number): Promise<RegionRow | null> {
    const [row] = await this.replicaDb.select().from(regions).where(eq(regions.code, code));
    return row ?? null;
  }

  async searchRegions(q: string, limit: number): Promise<Scored<RegionRow>[]> {
    const score = sql<number>`greatest(${similarityTo(regions.nameEn, q)}, ${similarityTo(regions.nameFr, q)})`;
    return this.replicaDb
      .select({ row: regions, score })
      .from(regions)
      .where(or(nameMatches(regions.nameEn, q), nameMatches(regions.nameFr, q)))
      .orderBy(desc(score), asc(regions.code))
      .limit(limit);
  }

  async listSubregions(filter: ParentFilter, page: PageRequest): Promise<SubregionRow[]> {
    const { where, orderBy } = keyset(subregionsKeyset, page);
    return this.replicaDb
      .select()
      .from(subregions)
      .where(
        and(
          filter.region === undefined ? undefined : eq(subregions.regionCode, filter.region),
          filter.subregion === undefined ? undefined : eq(subregions.parentCode, filter.subregion),
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async subregion(code: number): Promise<SubregionRow | null> {
    const [row] = await this.replicaDb.select().from(subregions).where(eq(subregions.code, code));
    return row ?? null;
  }

  async searchSubregions(q: string, limit: number): Promise<Scored<SubregionRow>[]> {
    const score = sql<number>`greatest(${similarityTo(subregions.nameEn, q)}, ${similarityTo(subregions.nameFr, q)})`;
    return this.replicaDb
      .select({ row: subregions, score })
      .from(subregions)
      .where(or(nameMatches(subregions.nameEn, q), nameMatches(subregions.nameFr, q)))
      .orderBy(desc(score), asc(subregions.code))
      .limit(limit);
  }

  // ---- countries ----

  async listCountries(filter: ParentFilter, page: PageRequest): Promise<CountryRow[]> {
    const { where, orderBy } = keyset(countriesKeyset, page);
    return this.replicaDb
      .select()
      .from(countries)
      .where(
        and(
          filter.region === undefined ? undefined : eq(countries.regionCode, filter.region),
          filter.subregion === undefined
            ? undefined
            : or(eq(countries.subregionCode, filter.subregion), eq(countries.intermediateRegionCode, filter.subregion)),
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** By ISO alpha-2 or alpha-3 code (upper case). */
  async country(code: string): Promise<CountryRow | null> {
    const column = code.length === 2 ? countries.alpha2 : countries.alpha3;
    const [row] = await this.replicaDb.select().from(countries).where(eq(column, code));
    return row ?? null;
  }

  async searchCountries(q: string, limit: number): Promise<Scored<CountryRow>[]> {
    const score = sql<number>`greatest(${similarityTo(countries.nameEn, q)}, ${similarityTo(countries.nameFr, q)})`;
    return this.replicaDb
      .select({ row: countries, score })
      .from(countries)
      .where(or(nameMatches(countries.nameEn, q), nameMatches(countries.nameFr, q)))
      .orderBy(desc(score), asc(countries.alpha2))
      .limit(limit);
  }

  // ---- cities ----

  readonly #cities = new PreparedPage<CityRow>(
    this.replicaSource,
    'geography.cities',
    citiesKeyset,
    (db, where, orderBy) =>
      db
        .select()
        .from(cities)
        .where(where)
        .orderBy(...orderBy),
  );

  readonly #citiesOfCountry = new PreparedPage<CityRow>(
    this.replicaSource,
    'geography.citiesOfCountry',
    citiesKeyset,
    (db, where, orderBy) =>
      db
        .select()
        .from(cities)
        .where(and(eq(cities.countryCode, sql.placeholder('country')), where))
        .orderBy(...orderBy),
  );

  readonly #cityById = new PreparedRead<CityRow>(this.replicaSource, 'geography.cityById', (db) =>
    db
      .select()
      .from(cities)
      .where(eq(cities.id, sql.placeholder('id'))),
  );

  // The btree on (latitude, longitude) answers the degree box (degree-box.ts). Of the cities within the
  // radius, the one whose reach covers the point best: distance / (1 km + 5 m × √population), so a point
  // at the Eiffel Tower is in Paris (4 km from its centre) rather than in Neuilly-sur-Seine (3.4 km), yet
  // a point in Neuilly is in Neuilly. The distance is computed once per city of the box (OFFSET 0 keeps
  // PostgreSQL from copying it into the filter and the order), by the haversine formula on
  // earthdistance's sphere (platform/db/great-circle.ts): earth_distance of two ll_to_earth gives the same metres
  // for about 10 µs a city, and the box around Paris holds 423 (4 to 6.5 ms a point; now 0.33).
  readonly #nearestCity = byKey(
    longitudeSpans,
    (spans) =>
      new PreparedRead<CityRow & { distance: number }>(this.source, `geography.nearestCity.${spans}`, (db) => {
        const near = db
          .select({ ...getTableColumns(cities), distance: greatCircleMetres(cities).as('distance') })
          .from(cities)
          .where(
            and(
              between(cities.latitude, sql.placeholder('southLatitude'), sql.placeholder('northLatitude')),
              inSpans(cities.longitude, spans, ['west', 'east']),
            ),
          )
          .offset(0)
          .as('near');
        return db
          .select()
          .from(near)
          .where(sql`${near.distance} <= ${sql.placeholder('radius')}`)
          .orderBy(sql`${near.distance} / (1000 + 5 * sqrt(${near.population}))`, near.id)
          .limit(1);
      }),
  );

  /** Cities of one country (alpha-2) or of the world, most populated first. */
  listCities(country: string | null, page: PageRequest): Promise<CityRow[]> {
    return country === null ? this.#cities.run(page, {}) : this.#citiesOfCountry.run(page, { country });
  }

  async city(id: string): Promise<CityRow | null> {
    const [row] = await this.#cityById.run({ id });
    return row ?? null;
  }

  async searchCities(q: string, limit: number): Promise<Scored<CityRow>[]> {
    const score = similarityTo(cities.name, q);
    return this.replicaDb
      .select({ row: cities, score })
      .from(cities)
      .where(nameMatches(cities.name, q))
      .orderBy(desc(score), desc(cities.population), asc(cities.id))
      .limit(limit);
  }

  async nearestCity(latitude: number, longitude: number, radius: number): Promise<NearbyCity | null> {
    const box = degreeBoxAround(latitude, longitude, radius);
    const [row] = await this.#nearestCity[spansOf(box)].run({ latitude, longitude, radius, ...box });
    if (row === undefined) return null;
    const { distance, ...city } = row;
    return { city, distance };
  }
}
