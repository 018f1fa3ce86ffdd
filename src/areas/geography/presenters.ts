/** Rows -> JSON:API resources (`regions`, `subregions`, `countries`, `cities`), names in the request's locale. */
import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource } from '../../platform/http/jsonapi.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { CityRow, CountryRow, RegionRow, SubregionRow } from './tables.ts';

/** An M49 code as the UN writes it: three digits ("002", "155"). */
export const m49 = (code: number) => String(code).padStart(3, '0');
const nullableM49 = (code: number | null) => (code === null ? null : m49(code));
const nameIn = (row: { nameEn: string; nameFr: string }, locale: Locale) =>
  locale === 'fr-FR' ? row.nameFr : row.nameEn;

const M49Code = Type.String({ pattern: '^[0-9]{3}$', description: 'UN M49 code, three digits' });
const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });

export const RegionSchema = ResourceSchema(
  'regions',
  Type.Object({ code: M49Code, name: Type.String({ description: 'in the negotiated locale' }) }),
  undefined,
  'Region',
);

export const SubregionSchema = ResourceSchema(
  'subregions',
  Type.Object({
    code: M49Code,
    name: Type.String({ description: 'in the negotiated locale' }),
    regionCode: M49Code,
    parentCode: Nullable(
      Type.String({ pattern: '^[0-9]{3}$', description: 'the sub-region an intermediate region belongs to' }),
    ),
  }),
  undefined,
  'Subregion',
);

export const CountrySchema = ResourceSchema(
  'countries',
  Type.Object({
    code: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
    alpha3: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 3166-1 alpha-3' }),
    m49: Nullable(Type.String({ pattern: '^[0-9]{3}$', description: 'UN M49 numeric code (null for Kosovo)' })),
    name: Type.String({ description: 'common name in the negotiated locale' }),
    latitude: Latitude,
    longitude: Longitude,
    regionCode: Nullable(Type.String({ pattern: '^[0-9]{3}$' })),
    subregionCode: Nullable(Type.String({ pattern: '^[0-9]{3}$' })),
    intermediateRegionCode: Nullable(Type.String({ pattern: '^[0-9]{3}$' })),
  }),
  undefined,
  'Country',
);

export const CitySchema = ResourceSchema(
  'cities',
  Type.Object({
    name: Type.String(),
    asciiName: Type.String({ description: 'the name without diacritics' }),
    countryCode: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
    adminCode: Nullable(Type.String({ description: 'GeoNames first-level administrative division code' })),
    population: Type.Integer({ minimum: 0 }),
    latitude: Latitude,
    longitude: Longitude,
  }),
  undefined,
  'City',
);

export const presentRegion = (row: RegionRow, locale: Locale) =>
  resource('regions', row.id, { code: m49(row.code), name: nameIn(row, locale) });

export const presentSubregion = (row: SubregionRow, locale: Locale) =>
  resource('subregions', row.id, {
    code: m49(row.code),
    name: nameIn(row, locale),
    regionCode: m49(row.regionCode),
    parentCode: nullableM49(row.parentCode),
  });

export const presentCountry = (row: CountryRow, locale: Locale) =>
  resource('countries', row.id, {
    code: row.alpha2,
    alpha3: row.alpha3,
    m49: nullableM49(row.m49),
    name: nameIn(row, locale),
    latitude: row.latitude,
    longitude: row.longitude,
    regionCode: nullableM49(row.regionCode),
    subregionCode: nullableM49(row.subregionCode),
    intermediateRegionCode: nullableM49(row.intermediateRegionCode),
  });

export const presentCity = (row: CityRow) =>
  resource('cities', row.id, {
    name: row.name,
    asciiName: row.asciiName,
    countryCode: row.countryCode,
    adminCode: row.adminCode,
    population: row.population,
    latitude: row.latitude,
    longitude: row.longitude,
  });
