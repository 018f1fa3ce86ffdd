/**
 * The rows an import file holds, one kind per dataset, and the rules each row must pass before it is
 * written. A row is a plain object (a JSON element, or a CSV record turned into one by csv-rows.ts);
 * `check` answers the row as stored, or the first reason it is refused. References (a city by name,
 * an establishment or a brand by external id) are resolved later, against the database.
 */
import { parseClientTime } from '../../../platform/http/time.ts';
import { visibleText } from '../../../platform/text/visible-text.ts';
import type { LocalizedText } from '../tables.ts';
import {
  commissionRateProblem,
  currencyProblem,
  externalIdProblem,
  httpUrlProblem,
  kindProblem,
  labelsProblem,
  priceProblem,
} from '../validation.ts';
import { catalogueLocales } from '../vocabulary.ts';

export const datasets = ['establishments', 'offers', 'brands'] as const;
export type Dataset = (typeof datasets)[number];

export interface BrandInput {
  externalId: string;
  name: string;
  website: string | null;
  description: LocalizedText;
}

/** Where an establishment is: a geography city id, or a city name in a country (alpha-2). */
export type CityReference = { id: string } | { name: string; country: string } | null;

export interface EstablishmentInput {
  externalId: string;
  name: string;
  kind: string;
  labels: string[];
  address: string | null;
  city: CityReference;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  brandExternalId: string | null;
  website: string | null;
  description: LocalizedText;
  active: boolean;
}

export interface OfferInput {
  externalId: string;
  title: LocalizedText;
  description: LocalizedText;
  establishmentExternalId: string | null;
  brandExternalId: string | null;
  priceMin: number | null;
  priceMax: number | null;
  currency: string;
  commissionRateBps: number;
  partnerUrl: string;
  validFrom: Date | null;
  validUntil: Date | null;
  active: boolean;
}

/** The fields a row of each dataset may have (JSON names; CSV columns are in csv-rows.ts). */
export const fields: Record<Dataset, readonly string[]> = {
  brands: ['externalId', 'name', 'website', 'description'],
  establishments: [
    'externalId',
    'name',
    'kind',
    'labels',
    'address',
    'cityId',
    'city',
    'country',
    'latitude',
    'longitude',
    'brandExternalId',
    'website',
    'description',
    'active',
  ],
  offers: [
    'externalId',
    'title',
    'description',
    'establishmentExternalId',
    'brandExternalId',
    'priceMin',
    'priceMax',
    'currency',
    'commissionRateBps',
    'partnerUrl',
    'validFrom',
    'validUntil',
    'active',
  ],
};

/** A refused row: the reason names the field. */
export class RowError extends Error {}

type Row = Record<string, unknown>;
const refuse = (field: string, message: string): never => {
  throw new RowError(`${field}: ${message}`);
};

const present = (row: Row, field: string) => row[field] !== undefined && row[field] !== null;

function text(row: Row, field: string, max: number, options: { required: true }): string;
function text(row: Row, field: string, max: number, options?: { required?: false }): string | null;
function text(row: Row, field: string, max: number, options: { required?: boolean } = {}): string | null {
  const value = row[field];
  if (!present(row, field) || value === '') return options.required ? refuse(field, 'is required') : null;
  if (typeof value !== 'string') return refuse(field, 'must be a string');
  const cleaned = visibleText(value);
  if (cleaned === null) return options.required ? refuse(field, 'is required') : null;
  if (cleaned.length > max) refuse(field, `at most ${max} characters`);
  return cleaned;
}

function externalId(row: Row, field: string, required: boolean): string | null {
  const value = required ? text(row, field, 200, { required: true }) : text(row, field, 200);
  const problem = value === null ? null : externalIdProblem(value);
  if (problem !== null) refuse(field, problem);
  return value;
}

/** http(s) only: a `javascript:` or `data:` URL, or one with credentials, never reaches a redirect. */
function url(row: Row, field: string, required: boolean): string | null {
  const value = required ? text(row, field, 2000, { required: true }) : text(row, field, 2000);
  if (value === null) return null;
  const problem = httpUrlProblem(value);
  if (problem !== null) refuse(field, problem);
  return value;
}

function localized(row: Row, field: string, options: { requireEnglish: boolean; max: number }): LocalizedText {
  const value = row[field];
  if (!present(row, field)) return options.requireEnglish ? refuse(`${field}.en-US`, 'is required') : {};
  if (typeof value !== 'object' || Array.isArray(value))
    return refuse(field, `must be an object with ${catalogueLocales.join(', ')} texts`);
  const result: LocalizedText = {};
  for (const [locale, entry] of Object.entries(value as Row)) {
    if (!(catalogueLocales as readonly string[]).includes(locale))
      refuse(`${field}.${locale}`, `unknown locale (${catalogueLocales.join(', ')})`);
    if (entry === null || entry === undefined || entry === '') continue;
    if (typeof entry !== 'string') refuse(`${field}.${locale}`, 'must be a string');
    const cleaned = visibleText(entry as string, { multiline: true });
    if (cleaned === null) continue;
    if (cleaned.length > options.max) refuse(`${field}.${locale}`, `at most ${options.max} characters`);
    result[locale] = cleaned;
  }
  if (options.requireEnglish && result['en-US'] === undefined) refuse(`${field}.en-US`, 'is required');
  return result;
}

function integer(row: Row, field: string, rule: (value: number) => string | null, required: boolean): number | null {
  const value = row[field];
  if (!present(row, field)) return required ? refuse(field, 'is required') : null;
  if (typeof value !== 'number') return refuse(field, 'must be a number');
  const problem = rule(value);
  if (problem !== null) refuse(field, problem);
  return value;
}

function coordinate(row: Row, field: string, limit: number): number | null {
  const value = row[field];
  if (!present(row, field)) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit)
    refuse(field, `must be a number between -${limit} and ${limit}`);
  return value as number;
}

function flag(row: Row, field: string): boolean {
  const value = row[field];
  if (!present(row, field)) return true;
  if (typeof value !== 'boolean') refuse(field, 'must be true or false');
  return value as boolean;
}

function time(row: Row, field: string): Date | null {
  const value = row[field];
  if (!present(row, field) || value === '') return null;
  // RFC 3339 with an offset (or Z), or a plain date (midnight UTC).
  const shape = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/i;
  if (typeof value !== 'string' || !shape.test(value))
    return refuse(field, 'must be an RFC 3339 time with an offset, or a date (YYYY-MM-DD)');
  // The shared rule: a year a PostgreSQL timestamp cannot hold (0000, or 10000 once in UTC) is refused too.
  return parseClientTime(value) ?? refuse(field, 'is not a valid time between the years 1 and 9999');
}

const countryShape = /^[A-Za-z]{2}$/;
function unknownFields(row: Row, dataset: Dataset) {
  for (const key of Object.keys(row)) if (!fields[dataset].includes(key)) refuse(key, 'unknown field');
}

function asRow(value: unknown): Row {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RowError('a row must be an object');
  return value as Row;
}

export function checkBrand(value: unknown): BrandInput {
  const row = asRow(value);
  unknownFields(row, 'brands');
  return {
    externalId: externalId(row, 'externalId', true) as string,
    name: text(row, 'name', 200, { required: true }),
    website: url(row, 'website', false),
    description: localized(row, 'description', { requireEnglish: false, max: 5000 }),
  };
}

export function checkEstablishment(value: unknown): EstablishmentInput {
  const row = asRow(value);
  unknownFields(row, 'establishments');
  const id = externalId(row, 'externalId', true) as string;
  const name = text(row, 'name', 200, { required: true });
  const kind = text(row, 'kind', 50, { required: true });
  const kindIssue = kindProblem(kind);
  if (kindIssue !== null) refuse('kind', kindIssue);
  let labels: string[] = [];
  if (present(row, 'labels')) {
    if (!Array.isArray(row.labels) || !row.labels.every((label) => typeof label === 'string'))
      refuse('labels', 'must be a list of labels');
    labels = [...new Set((row.labels as string[]).map((label) => label.trim()).filter((label) => label !== ''))];
    const labelIssue = labelsProblem(labels);
    if (labelIssue !== null) refuse('labels', labelIssue);
  }
  const country = text(row, 'country', 2);
  if (country !== null && !countryShape.test(country)) refuse('country', 'must be an ISO 3166 alpha-2 code');
  const cityId = text(row, 'cityId', 36);
  const cityName = text(row, 'city', 200);
  if (cityId !== null && cityName !== null) refuse('city', 'give cityId or city, not both');
  if (cityName !== null && country === null) refuse('country', 'is required with city');
  if (cityId === null && country === null) refuse('country', 'is required (or cityId)');
  const latitude = coordinate(row, 'latitude', 90);
  const longitude = coordinate(row, 'longitude', 180);
  if ((latitude === null) !== (longitude === null)) refuse('longitude', 'latitude and longitude go together');
  return {
    externalId: id,
    name,
    kind,
    labels,
    address: text(row, 'address', 500),
    city: cityId !== null ? { id: cityId } : cityName !== null && country !== null ? { name: cityName, country } : null,
    country: country?.toUpperCase() ?? null,
    latitude,
    longitude,
    brandExternalId: externalId(row, 'brandExternalId', false),
    website: url(row, 'website', false),
    description: localized(row, 'description', { requireEnglish: false, max: 5000 }),
    active: flag(row, 'active'),
  };
}

export function checkOffer(value: unknown): OfferInput {
  const row = asRow(value);
  unknownFields(row, 'offers');
  const id = externalId(row, 'externalId', true) as string;
  const title = localized(row, 'title', { requireEnglish: true, max: 200 });
  const description = localized(row, 'description', { requireEnglish: false, max: 5000 });
  const establishmentExternalId = externalId(row, 'establishmentExternalId', false);
  const brandExternalId = externalId(row, 'brandExternalId', false);
  if (establishmentExternalId === null && brandExternalId === null)
    refuse('establishmentExternalId', 'an offer belongs to an establishment or a brand (brandExternalId)');
  const priceMin = integer(row, 'priceMin', priceProblem, false);
  const priceMax = integer(row, 'priceMax', priceProblem, false);
  if (priceMin !== null && priceMax !== null && priceMin > priceMax) refuse('priceMax', 'must not be below priceMin');
  const currency = text(row, 'currency', 3, { required: true });
  const currencyIssue = currencyProblem(currency);
  if (currencyIssue !== null) refuse('currency', `${JSON.stringify(currency)} ${currencyIssue}`);
  const commissionRateBps = integer(row, 'commissionRateBps', commissionRateProblem, true) as number;
  const partnerUrl = url(row, 'partnerUrl', true) as string;
  const validFrom = time(row, 'validFrom');
  const validUntil = time(row, 'validUntil');
  if (validFrom !== null && validUntil !== null && validFrom >= validUntil)
    refuse('validUntil', 'must be after validFrom');
  return {
    externalId: id,
    title,
    description,
    establishmentExternalId,
    brandExternalId,
    priceMin,
    priceMax,
    currency,
    commissionRateBps,
    partnerUrl,
    validFrom,
    validUntil,
    active: flag(row, 'active'),
  };
}
