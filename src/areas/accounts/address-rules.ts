/**
 * Postal address rules, applied once the text is trimmed: required fields must not be blank, optional
 * ones (line2, region, phone) become null when blank, and every length counts the trimmed text.
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import { countryCodes } from '../../platform/text/country-codes.ts';
import type { PostalAddress } from './tables.ts';

export const addressLimits = {
  recipient: 100,
  line1: 200,
  line2: 200,
  postalCode: 20,
  city: 100,
  region: 100,
  phone: 32,
} as const;
export const phonePattern = '^\\+?[0-9 ().-]{3,32}$';

const requiredFields = ['recipient', 'line1', 'postalCode', 'city'] as const;
const optionalFields = ['line2', 'region', 'phone'] as const;

/** The address to store from the current one and a patch, or every problem at once (422 each). */
export function checkedAddress(
  current: PostalAddress | null,
  patch: Partial<Record<keyof PostalAddress, string | null>>,
): { address: PostalAddress; problems: [] } | { address: null; problems: AppError[] } {
  const merged: Record<string, string | null> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(patch)) merged[key] = typeof value === 'string' ? value.trim() : null;
  const problems: AppError[] = [];
  const problem = (field: string, detail: string) =>
    problems.push(new AppError('validationFailed', { source: { pointer: `/${field}` }, detail }));
  for (const field of requiredFields) {
    const value = merged[field];
    if (!value) problem(field, current ? 'must not be blank' : 'is required for a first address');
    else if ([...value].length > addressLimits[field]) problem(field, `at most ${addressLimits[field]} characters`);
  }
  for (const field of optionalFields) {
    const value = merged[field];
    if (value && [...value].length > addressLimits[field]) problem(field, `at most ${addressLimits[field]} characters`);
  }
  if (merged.phone && !new RegExp(phonePattern).test(merged.phone)) {
    problem('phone', 'digits, spaces, + ( ) . - only, 3 to 32 of them');
  }
  const country = merged.countryCode?.toUpperCase() ?? null;
  if (!country) problem('countryCode', current ? 'must not be blank' : 'is required for a first address');
  else if (!countryCodes.has(country)) problem('countryCode', 'must be an ISO 3166-1 alpha-2 country code');
  const { recipient, line1, postalCode, city } = merged;
  // A blank required field is a problem already: the second half only narrows the types.
  if (problems.length > 0 || !recipient || !line1 || !postalCode || !city || !country) {
    return { address: null, problems };
  }
  return {
    address: {
      recipient,
      line1,
      line2: merged.line2 || null,
      postalCode,
      city,
      region: merged.region || null,
      countryCode: country,
      phone: merged.phone || null,
    },
    problems: [],
  };
}
