/**
 * The 12 reference-data routes, all public: lists (keyset pages), name search (ranked, bounded by
 * `limit`) and look-ups by code or id for regions, subregions, countries and cities.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { isLowercaseUuid } from '../../platform/ids/ids.ts';
import { citiesKeyset, countriesKeyset, regionsKeyset, subregionsKeyset } from './geography.repository.ts';
import {
  CitySchema,
  CountrySchema,
  presentCity,
  presentCountry,
  presentRegion,
  presentSubregion,
  RegionSchema,
  SubregionSchema,
} from './presenters.ts';
import type { GeographyServices } from './public.ts';
import { searchQueryMaxLength } from './search-query.ts';

const m49Filter = (description: string) =>
  Type.Optional(
    Type.Integer({ minimum: 1, maximum: 999, description: `${description} (UN M49 code, e.g. 150 or 002)` }),
  );
const searchQuerySchema = {
  q: Type.String({
    minLength: 1,
    maxLength: searchQueryMaxLength,
    description: `1 to ${searchQueryMaxLength} characters; accents, case and small typos do not matter; %, _ and \\ are refused`,
  }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: '1 to 50 results' })),
};
const m49Param = { code: Type.String({ pattern: '^[0-9]{1,3}$', description: 'UN M49 code, e.g. 150 or 002' }) };
const countryCode = Type.String({ pattern: '^[A-Za-z]{2,3}$', description: 'ISO 3166-1 alpha-2 or alpha-3, any case' });

const searchAnswer = (request: FastifyRequest, data: unknown[], limit: number) => ({
  data,
  meta: { limit },
  links: { self: `${request.server.publicUrl}${request.url}` },
});

function found<T>(row: T | null): T {
  if (row === null) throw new AppError('notFound');
  return row;
}

const rankedSummary = (what: string) =>
  `Search ${what} by name, accent- and case-insensitive and typo-tolerant; best match first (similarity, then population for cities)`;

export function geographyRoutes({ geography }: Pick<GeographyServices, 'geography'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/regions',
      auth: 'none',
      summary: 'UN M49 regions, by code',
      page: { keyset: regionsKeyset },
      success: { status: 200, schema: CollectionSchema(RegionSchema) },
      handler: async ({ page, links, locale }) =>
        listDocument(await geography.regions(page), { page, links }, regionsKeyset, (row) =>
          presentRegion(row, locale),
        ),
    }),
    route({
      method: 'GET',
      path: '/api/regions/search',
      auth: 'none',
      summary: rankedSummary('regions'),
      query: searchQuerySchema,
      success: { status: 200, schema: CollectionSchema(RegionSchema) },
      handler: async ({ query, locale, request }) => {
        const limit = query.limit ?? 10;
        const hits = await geography.searchRegions(query.q, limit);
        return searchAnswer(
          request,
          hits.map((hit) => presentRegion(hit.row, locale)),
          limit,
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/regions/{code}',
      auth: 'none',
      summary: 'One region by UN M49 code',
      params: m49Param,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(RegionSchema) },
      handler: async ({ params, locale }) => ({
        data: presentRegion(found(await geography.region(Number(params.code))), locale),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/subregions',
      auth: 'none',
      summary: 'UN M49 sub-regions and intermediate regions, by code',
      query: {
        region: m49Filter('only those of this region'),
        subregion: m49Filter('only the intermediate regions of this sub-region'),
      },
      page: { keyset: subregionsKeyset },
      success: { status: 200, schema: CollectionSchema(SubregionSchema) },
      handler: async ({ query, page, links, locale }) => {
        const rows = await geography.subregions({ region: query.region, subregion: query.subregion }, page);
        return listDocument(rows, { page, links }, subregionsKeyset, (row) => presentSubregion(row, locale));
      },
    }),
    route({
      method: 'GET',
      path: '/api/subregions/search',
      auth: 'none',
      summary: rankedSummary('sub-regions'),
      query: searchQuerySchema,
      success: { status: 200, schema: CollectionSchema(SubregionSchema) },
      handler: async ({ query, locale, request }) => {
        const limit = query.limit ?? 10;
        const hits = await geography.searchSubregions(query.q, limit);
        return searchAnswer(
          request,
          hits.map((hit) => presentSubregion(hit.row, locale)),
          limit,
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/subregions/{code}',
      auth: 'none',
      summary: 'One sub-region or intermediate region by UN M49 code',
      params: m49Param,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(SubregionSchema) },
      handler: async ({ params, locale }) => ({
        data: presentSubregion(found(await geography.subregion(Number(params.code))), locale),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/countries',
      auth: 'none',
      summary: 'Countries and territories, by ISO alpha-2 code',
      query: {
        region: m49Filter('only the countries of this region'),
        subregion: m49Filter('only the countries of this sub-region or intermediate region'),
      },
      page: { keyset: countriesKeyset },
      success: { status: 200, schema: CollectionSchema(CountrySchema) },
      handler: async ({ query, page, links, locale }) => {
        const rows = await geography.countries({ region: query.region, subregion: query.subregion }, page);
        return listDocument(rows, { page, links }, countriesKeyset, (row) => presentCountry(row, locale));
      },
    }),
    route({
      method: 'GET',
      path: '/api/countries/search',
      auth: 'none',
      summary: rankedSummary('countries (English and French names)'),
      query: searchQuerySchema,
      success: { status: 200, schema: CollectionSchema(CountrySchema) },
      handler: async ({ query, locale, request }) => {
        const limit = query.limit ?? 10;
        const hits = await geography.searchCountries(query.q, limit);
        return searchAnswer(
          request,
          hits.map((hit) => presentCountry(hit.row, locale)),
          limit,
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/countries/{code}',
      auth: 'none',
      summary: 'One country by ISO 3166-1 alpha-2 or alpha-3 code, any case',
      params: { code: countryCode },
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(CountrySchema) },
      handler: async ({ params, locale }) => ({
        data: presentCountry(found(await geography.country(params.code)), locale),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/cities',
      auth: 'none',
      summary: 'Cities (GeoNames, population 1,000 or more), most populated first',
      query: {
        country: Type.Optional(
          Type.String({
            pattern: '^[A-Za-z]{2,3}$',
            description:
              'only the cities of this country: ISO alpha-2 or alpha-3, any case (an unknown one lists none)',
          }),
        ),
      },
      page: { keyset: citiesKeyset },
      success: { status: 200, schema: CollectionSchema(CitySchema) },
      handler: async ({ query, page, links }) =>
        listDocument(await geography.cities(query.country ?? null, page), { page, links }, citiesKeyset, presentCity),
    }),
    route({
      method: 'GET',
      path: '/api/cities/search',
      auth: 'none',
      summary: rankedSummary('cities'),
      query: searchQuerySchema,
      success: { status: 200, schema: CollectionSchema(CitySchema) },
      handler: async ({ query, request }) => {
        const limit = query.limit ?? 10;
        const hits = await geography.searchCities(query.q, limit);
        return searchAnswer(
          request,
          hits.map((hit) => presentCity(hit.row)),
          limit,
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/cities/{id}',
      auth: 'none',
      summary: 'One city by id (a lowercase 8-4-4-4-12 UUID; anything else is 422 invalidId)',
      params: { id: Type.String({ description: 'The city UUID, lowercase, 8-4-4-4-12' }) },
      errors: ['invalidId', 'notFound'],
      success: { status: 200, schema: DocumentSchema(CitySchema) },
      handler: async ({ params }) => {
        if (!isLowercaseUuid(params.id)) throw new AppError('invalidId', { source: { parameter: 'id' } });
        return { data: presentCity(found(await geography.city(params.id))) };
      },
    }),
  ];
}
