/**
 * Rows -> JSON:API resources (`establishments`, `offers`, `brands`). Texts per locale are shown in the
 * negotiated locale, else in en-US, and say which (`descriptionLocale`, `titleLocale`).
 */
import { Type } from 'typebox';
import {
  Nullable,
  RelationshipSchema,
  ResourceSchema,
  relation,
  resource,
  StringEnum,
} from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { currencyCodes } from '../../platform/money/currencies.ts';
import type { ListedEstablishment } from './establishments.repository.ts';
import { localized } from './localized.ts';
import type { ListedOffer } from './offers.repository.ts';
import type { BrandRow } from './tables.ts';
import { establishmentKinds, sustainabilityLabels } from './vocabulary.ts';

const LocaleUsed = (what: string) =>
  Nullable(Type.String({ description: `The locale ${what} is in: the negotiated one, else en-US (null: no text)` }));

export const BrandSchema = ResourceSchema(
  'brands',
  Type.Object({
    name: Type.String(),
    website: Nullable(Type.String({ description: 'http(s) URL' })),
    description: Nullable(Type.String()),
    descriptionLocale: LocaleUsed('the description'),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
  undefined,
  'Brand',
);

export function presentBrand(row: BrandRow, locale: Locale) {
  const description = localized(row.description, locale);
  return resource('brands', row.id, {
    name: row.name,
    website: row.website,
    description: description.text,
    descriptionLocale: description.locale,
    createdAt: formatTimestamp(row.createdAt),
    updatedAt: formatTimestamp(row.updatedAt),
  });
}

export const EstablishmentSchema = ResourceSchema(
  'establishments',
  Type.Object({
    name: Type.String(),
    kind: StringEnum(establishmentKinds),
    labels: Type.Array(StringEnum(sustainabilityLabels), { description: 'Sustainability labels and certifications' }),
    address: Nullable(Type.String()),
    cityName: Nullable(Type.String({ description: 'The city (relationship `city`), as GeoNames names it' })),
    countryCode: Type.String({ description: 'ISO 3166-1 alpha-2' }),
    latitude: Nullable(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Nullable(Type.Number({ minimum: -180, maximum: 180 })),
    distanceKm: Nullable(Type.Number({ description: 'From the centre of a lat/lng list; null elsewhere' })),
    website: Nullable(Type.String({ description: 'http(s) URL' })),
    description: Nullable(Type.String()),
    descriptionLocale: LocaleUsed('the description'),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
  Type.Object({
    city: RelationshipSchema('cities'),
    brand: RelationshipSchema('brands'),
    offers: Type.Optional(
      Type.Object({
        data: Type.Array(Type.Object({ type: Type.Literal('offers'), id: Type.String() })),
      }),
    ),
  }),
  'Establishment',
);

export function presentEstablishment(row: ListedEstablishment, locale: Locale, offerIds?: string[]) {
  const description = localized(row.description, locale);
  return resource(
    'establishments',
    row.id,
    {
      name: row.name,
      kind: row.kind,
      labels: row.labels,
      address: row.address,
      cityName: row.cityName,
      countryCode: row.countryCode,
      latitude: row.latitude,
      longitude: row.longitude,
      distanceKm: row.distance === null ? null : Math.round(row.distance) / 1000,
      website: row.website,
      description: description.text,
      descriptionLocale: description.locale,
      createdAt: formatTimestamp(row.createdAt),
      updatedAt: formatTimestamp(row.updatedAt),
    },
    {
      city: relation('cities', row.cityId),
      brand: relation('brands', row.brandId),
      ...(offerIds ? { offers: { data: offerIds.map((id) => ({ type: 'offers', id })) } } : {}),
    },
  );
}

export const OfferSchema = ResourceSchema(
  'offers',
  Type.Object({
    title: Type.String(),
    titleLocale: Type.String({ description: 'The locale the title is in: the negotiated one, else en-US' }),
    description: Nullable(Type.String()),
    descriptionLocale: LocaleUsed('the description'),
    priceMin: Nullable(Type.Integer({ minimum: 0, description: 'In minor units of `currency` (cents for EUR)' })),
    priceMax: Nullable(Type.Integer({ minimum: 0, description: 'In minor units of `currency`' })),
    currency: StringEnum(currencyCodes, { description: 'ISO 4217' }),
    commissionRateBps: Type.Integer({
      minimum: 0,
      maximum: 10000,
      description: "The creator's share of a conversion, in basis points (250 = 2.5 %)",
    }),
    validFrom: Nullable(Type.String({ format: 'date-time' })),
    validUntil: Nullable(Type.String({ format: 'date-time', description: 'Exclusive' })),
    live: Type.Boolean({ description: 'Always true here: offers that are not live are not shown (410 offerGone)' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
  Type.Object({ establishment: RelationshipSchema('establishments'), brand: RelationshipSchema('brands') }),
  'Offer',
);

export function presentOffer(row: ListedOffer, locale: Locale) {
  const title = localized(row.title, locale);
  const description = localized(row.description, locale);
  return resource(
    'offers',
    row.id,
    {
      title: title.text ?? '',
      titleLocale: title.locale ?? 'en-US',
      description: description.text,
      descriptionLocale: description.locale,
      priceMin: row.priceMin,
      priceMax: row.priceMax,
      currency: row.currency,
      commissionRateBps: row.commissionRateBps,
      validFrom: row.validFrom === null ? null : formatTimestamp(row.validFrom),
      validUntil: row.validUntil === null ? null : formatTimestamp(row.validUntil),
      live: row.live,
      createdAt: formatTimestamp(row.createdAt),
      updatedAt: formatTimestamp(row.updatedAt),
    },
    { establishment: relation('establishments', row.establishmentId), brand: relation('brands', row.brandId) },
  );
}
