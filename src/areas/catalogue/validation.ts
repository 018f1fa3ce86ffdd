/**
 * The catalogue's rules for a written row, shared by the services and the imports: each check returns
 * the problem in words (null when the value is fine), so an import can report it for a row and a
 * service can throw it.
 */
import { isCurrency } from '../../platform/money/currencies.ts';
import { catalogueLocales, establishmentKinds, sustainabilityLabels } from './vocabulary.ts';

/**
 * An absolute http(s) URL written out with its `//` (the database's check), a host and no credentials;
 * anything else (javascript:, data:, relative, `https:host` that a URL parser would accept) is refused.
 */
export function httpUrlProblem(value: string): string | null {
  if (value.length > 2000) return 'is longer than 2000 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (!/^https?:\/\//i.test(value)) return 'must start with http:// or https://';
  if (url.hostname === '') return 'has no host';
  if (url.username !== '' || url.password !== '') return 'may not hold credentials';
  // Wider than any engine's idea of a space, so the database's `[^\s]+` never refuses what passed here.
  if (/[\s\p{Z}\p{Cc}]/u.test(value)) return 'may not contain spaces or control characters';
  return null;
}

/** A partner's key for a row: what the imports accept (the database holds it to 1 to 200 characters). */
export function externalIdProblem(value: string): string | null {
  return /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/.test(value)
    ? null
    : 'letters, digits and . _ : - (starting with a letter or digit), at most 200';
}

/** A brand's or an establishment's name: something visible, at most 200 characters. */
export function nameProblem(value: string): string | null {
  if (value.trim() === '') return 'is blank';
  return value.length > 200 ? 'is longer than 200 characters' : null;
}

export const currencyProblem = (code: string): string | null =>
  isCurrency(code) ? null : 'is not an ISO 4217 currency code (upper case, e.g. EUR)';

export const kindProblem = (kind: string): string | null =>
  (establishmentKinds as readonly string[]).includes(kind) ? null : `must be one of ${establishmentKinds.join(', ')}`;

export function labelsProblem(labels: readonly string[]): string | null {
  const unknown = labels.filter((label) => !(sustainabilityLabels as readonly string[]).includes(label));
  return unknown.length === 0 ? null : `unknown labels: ${unknown.join(', ')}`;
}

export const commissionRateProblem = (bps: number): string | null =>
  Number.isInteger(bps) && bps >= 0 && bps <= 10_000 ? null : 'must be an integer from 0 to 10000 (basis points)';

/** A price in minor units: an integer from 0 to 2^31 - 1. */
export const priceProblem = (value: number): string | null =>
  Number.isInteger(value) && value >= 0 && value <= 2_147_483_647
    ? null
    : 'must be a whole number of minor units, 0 or more';

/** A text per locale: known locales only, non-blank strings; `required` asks for en-US (the fallback). */
export function localizedTextProblem(value: Record<string, unknown>, required: boolean): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be an object of texts by locale';
  for (const [locale, text] of Object.entries(value)) {
    if (!(catalogueLocales as readonly string[]).includes(locale)) return `unknown locale ${locale}`;
    if (typeof text !== 'string' || text.trim() === '') return `the ${locale} text is blank`;
  }
  if (required && typeof value['en-US'] !== 'string') return 'needs an en-US text';
  return null;
}

/** A time a PostgreSQL timestamp can hold: a valid date between the years 1 and 9999. */
export function storableTimeProblem(value: Date): string | null {
  const year = value.getUTCFullYear();
  return Number.isNaN(year) || year < 1 || year > 9999 ? 'is not a time between the years 1 and 9999' : null;
}
