/**
 * The 7 public catalogue routes: establishments (list, search, page), offers (list, search, page) and
 * brands (list). No credential needed; texts in the negotiated locale, else en-US.
 */
import { Type } from 'typebox';
import { centimetreDegrees } from '../../platform/db/centimetre-degrees.ts';
import { pageOf } from '../../platform/db/page.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema, StringEnum } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { pageLinks } from '../../platform/http/page-links.ts';
import { pageQuerySchema, pageRequest } from '../../platform/http/page-query.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { brandsKeyset } from './brands.repository.ts';
import {
  type EstablishmentFilter,
  establishmentsKeyset,
  establishmentsNearKeyset,
} from './establishments.repository.ts';
import { offersKeyset } from './offers.repository.ts';
import {
  BrandSchema,
  EstablishmentSchema,
  OfferSchema,
  presentBrand,
  presentEstablishment,
  presentOffer,
} from './presenters.ts';
import type { CatalogueServices } from './public.ts';
import { establishmentKinds, sustainabilityLabels } from './vocabulary.ts';

/** A `near` list: radiusKm defaults to 25 and may go up to 200. */
export const nearRadiusKm = { default: 25, max: 200 } as const;

const uuidFilter = (description: string) => Type.Optional(Type.String({ format: 'uuid', description }));
const countryFilter = Type.Optional(
  Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country code, any case' }),
);
const searchQuery = {
  q: Type.String({
    minLength: 1,
    maxLength: 100,
    description: '1 to 100 characters; case, accents and small typos do not matter',
  }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: '1 to 50 results' })),
};

function searchTerms(raw: string): string {
  const q = raw.trim();
  if (q === '') throw new AppError('invalidQueryParameter', { source: { parameter: 'q' }, detail: 'q is blank' });
  return q;
}

const searchAnswer = (url: string, data: unknown[], limit: number) => ({ data, meta: { limit }, links: { self: url } });

interface NearQuery {
  lat?: number;
  lng?: number;
  radiusKm?: number;
}

/** lat and lng come together; radiusKm only with them. */
function nearOf({ lat, lng, radiusKm }: NearQuery): EstablishmentFilter['near'] {
  if (lat === undefined && lng === undefined) {
    if (radiusKm !== undefined) {
      throw new AppError('invalidQueryParameter', {
        source: { parameter: 'radiusKm' },
        detail: 'radiusKm needs lat and lng',
      });
    }
    return undefined;
  }
  if (lat === undefined || lng === undefined) {
    const missing = lat === undefined ? 'lat' : 'lng';
    throw new AppError('invalidQueryParameter', { source: { parameter: missing }, detail: 'lat and lng go together' });
  }
  return {
    latitude: centimetreDegrees(lat),
    longitude: centimetreDegrees(lng),
    radiusMetres: (radiusKm ?? nearRadiusKm.default) * 1000,
  };
}

export function catalogueRoutes({
  establishments,
  offers,
  brands,
}: Pick<CatalogueServices, 'establishments' | 'offers' | 'brands'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/establishments',
      auth: 'none',
      summary: 'Active establishments: newest first, or nearest first with lat/lng (keyset pages)',
      query: {
        city: uuidFilter('Only those in this city (a cities UUID)'),
        country: countryFilter,
        kind: Type.Optional(StringEnum(establishmentKinds, { description: 'Only this kind' })),
        label: Type.Optional(StringEnum(sustainabilityLabels, { description: 'Only those holding this label' })),
        brand: uuidFilter('Only those of this brand (a brands UUID)'),
        lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Centre latitude (with lng)' })),
        lng: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Centre longitude (with lat)' })),
        radiusKm: Type.Optional(
          Type.Number({
            minimum: 0.001,
            maximum: nearRadiusKm.max,
            description: `With lat/lng: how far, in km (default ${nearRadiusKm.default}, at most ${nearRadiusKm.max})`,
          }),
        ),
        ...pageQuerySchema(20, 100),
      },
      errors: ['invalidCursor'],
      success: { status: 200, schema: CollectionSchema(EstablishmentSchema) },
      handler: async ({ query, locale, request }) => {
        const near = nearOf(query);
        const keyset = near === undefined ? establishmentsKeyset : establishmentsNearKeyset;
        const page = pageRequest(query, keyset, 20);
        const filter: EstablishmentFilter = {
          cityId: query.city?.toLowerCase(),
          countryCode: query.country?.toUpperCase(),
          kind: query.kind,
          label: query.label,
          brandId: query.brand?.toLowerCase(),
          near,
        };
        const result = pageOf(await establishments.list(filter, page), page, keyset);
        return {
          data: result.items.map((row) => presentEstablishment(row, locale)),
          meta: { limit: page.limit },
          links: pageLinks(request, result),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/api/establishments/search',
      auth: 'none',
      summary: 'Search active establishments by name and description (full text and typo-tolerant), best first',
      query: searchQuery,
      success: { status: 200, schema: CollectionSchema(EstablishmentSchema) },
      handler: async ({ query, locale, request }) => {
        const limit = query.limit ?? 10;
        const rows = await establishments.search(searchTerms(query.q), limit);
        return searchAnswer(
          `${request.server.publicUrl}${request.url}`,
          rows.map((row) => presentEstablishment(row, locale)),
          limit,
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/establishments/{id}',
      auth: 'none',
      summary: 'One active establishment, with its brand and its live offers (included)',
      params: { id: idParam('The establishment UUID', { hex: false }) },
      errors: ['notFound'],
      success: {
        status: 200,
        schema: DocumentSchema(EstablishmentSchema, { included: Type.Union([BrandSchema, OfferSchema]) }),
      },
      handler: async ({ params, locale }) => {
        const { establishment, brand, offers: live } = await establishments.get(params.id);
        return {
          data: presentEstablishment(
            establishment,
            locale,
            live.map((offer) => offer.id),
          ),
          included: [
            ...(brand === null ? [] : [presentBrand(brand, locale)]),
            ...live.map((offer) => presentOffer(offer, locale)),
          ],
        };
      },
    }),
    route({
      method: 'GET',
      path: '/api/offers',
      auth: 'none',
      summary: 'Live offers (active, inside their validity window), newest first (keyset pages)',
      query: {
        establishment: uuidFilter('Only the offers of this establishment'),
        brand: uuidFilter('Only the offers of this brand'),
        city: uuidFilter('Only the offers of establishments in this city'),
        country: countryFilter,
      },
      page: { keyset: offersKeyset },
      success: { status: 200, schema: CollectionSchema(OfferSchema) },
      handler: async ({ query, page, links, locale }) => {
        const filter = {
          establishmentId: query.establishment?.toLowerCase(),
          brandId: query.brand?.toLowerCase(),
          cityId: query.city?.toLowerCase(),
          countryCode: query.country?.toUpperCase(),
        };
        return listDocument(await offers.list(filter, page), { page, links }, offersKeyset, (row) =>
          presentOffer(row, locale),
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/offers/search',
      auth: 'none',
      summary: 'Search live offers by title and description (full text and typo-tolerant), best first',
      query: searchQuery,
      success: { status: 200, schema: CollectionSchema(OfferSchema) },
      handler: async ({ query, locale, request }) => {
        const limit = query.limit ?? 10;
        const rows = await offers.search(searchTerms(query.q), limit);
        return searchAnswer(
          `${request.server.publicUrl}${request.url}`,
          rows.map((row) => presentOffer(row, locale)),
          limit,
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/offers/{id}',
      auth: 'none',
      summary: 'One live offer; an expired, not yet valid or inactive one is 410 offerGone naming its establishment',
      params: { id: idParam('The offer UUID', { hex: false }) },
      errors: ['notFound', 'offerGone'],
      success: { status: 200, schema: DocumentSchema(OfferSchema) },
      handler: async ({ params, locale }) => ({ data: presentOffer(await offers.get(params.id), locale) }),
    }),
    route({
      method: 'GET',
      path: '/api/brands',
      auth: 'none',
      summary: 'Brands, by name (keyset pages)',
      page: { keyset: brandsKeyset },
      success: { status: 200, schema: CollectionSchema(BrandSchema) },
      handler: async ({ page, links, locale }) =>
        listDocument(await brands.list(page), { page, links }, brandsKeyset, (row) => presentBrand(row, locale)),
    }),
  ];
}
