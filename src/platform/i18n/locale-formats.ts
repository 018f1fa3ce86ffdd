/**
 * Counts, region names, lists and date ranges written in a locale: one Intl formatter per locale, made
 * at its first use and kept. Making one costs tens of microseconds (ICU loads the locale's data), and
 * the pages made one per place, trip or photo of their lists: on the demo world the count of each place
 * was 60 % of the travel page's server CPU, a trip's title 14 % of a profile's (docs/benchmarks.md,
 * Session 50).
 */
import { getOrCreate, type Locale, numberFormat } from './i18n.ts';
import { integerFormat } from './integer-format.ts';

const regions = new Map<Locale, Intl.DisplayNames>();
const lists = new Map<Locale, Intl.ListFormat>();
const dayRanges = new Map<Locale, Intl.DateTimeFormat>();
const days = { medium: new Map<Locale, Intl.DateTimeFormat>(), long: new Map<Locale, Intl.DateTimeFormat>() };

/** A number in the locale's digits and groups (12,345; 12 345): the messages' formatter, integer-format.ts for whole numbers. */
export const formatCount = (locale: Locale, value: number): string => integerFormat(numberFormat(locale))(value);

/** A region's name in the locale (FR: France, in fr-FR too; DE: Germany, Allemagne); the code itself when unknown or malformed. */
export function regionName(locale: Locale, code: string): string {
  const names = getOrCreate(regions, locale, () => new Intl.DisplayNames([locale], { type: 'region' }));
  try {
    return names.of(code) ?? code;
  } catch {
    return code; // of() throws a RangeError for a code that is not one
  }
}

/** Items joined as the locale joins a list of them: "Lyon, Annecy, and Grenoble"; "Lyon, Annecy et Grenoble". */
export const formatList = (locale: Locale, items: readonly string[]): string =>
  getOrCreate(lists, locale, () => new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' })).format(items);

/** The days from one date to another, short, in UTC: "Mar 14 – 15, 2026"; "14–15 mars 2026". */
export const formatDayRange = (locale: Locale, start: Date, end: Date): string =>
  getOrCreate(
    dayRanges,
    locale,
    () => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
  ).formatRange(start, end);

/** A day in UTC, medium ("Mar 14, 2026"; "14 mars 2026") or long ("March 14, 2026"; "14 mars 2026"). */
export const formatDay = (locale: Locale, at: Date, style: 'medium' | 'long'): string =>
  getOrCreate(days[style], locale, () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' })).format(
    at,
  );
