/**
 * The pg driver's type parsers, with a faster timestamptz. Every list row carries one or two
 * timestamps, and pg's parser (postgres-date: three regular expressions and a Date built in steps)
 * costs about 0.7 µs each; the form PostgreSQL writes with DateStyle ISO
 * (`2026-11-21 15:41:07.123456+00`, an offset of hours and maybe minutes) is read here by character
 * codes. Anything else (BC, infinity, years before 1000, seconds in the offset) goes to pg's own
 * parser, and a test holds both to the same Date for every form.
 */
import pg from 'pg';

const timestamptzOid = 1184;
const standardParser = pg.types.getTypeParser(timestamptzOid, 'text') as (text: string) => Date;

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const isDigit = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
};
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/** `YYYY-MM-DD HH:MM:SS[.f{1,6}]±HH[:MM]`, or null for any other form. */
export function parseIsoTimestamptz(text: string): Date | null {
  if (text.length < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32) {
    return null;
  }
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return null;
  // The digits of `YYYY-MM-DD HH:MM:SS`, each place named: a loop over a list of the places took about
  // a sixth of the parser's time.
  // biome-ignore format: the places in the date's and the time's groups
  if (
    !isDigit(text, 0) || !isDigit(text, 1) || !isDigit(text, 2) || !isDigit(text, 3) ||
    !isDigit(text, 5) || !isDigit(text, 6) || !isDigit(text, 8) || !isDigit(text, 9) ||
    !isDigit(text, 11) || !isDigit(text, 12) || !isDigit(text, 14) || !isDigit(text, 15) ||
    !isDigit(text, 17) || !isDigit(text, 18)
  ) return null;
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + twoDigits(text, 2);
  if (year < 1000) return null; // early years go to pg's parser (see above)
  let at = 19;
  let milliseconds = 0;
  if (text.charCodeAt(at) === 46) {
    const start = ++at;
    while (at < text.length && isDigit(text, at)) at++;
    const fraction = at - start;
    if (fraction < 1 || fraction > 6) return null;
    for (let place = 0; place < 3; place++) {
      milliseconds = milliseconds * 10 + (place < fraction ? digit(text, start + place) : 0);
    }
  }
  const sign = text.charCodeAt(at);
  if ((sign !== 43 && sign !== 45) || !isDigit(text, at + 1) || !isDigit(text, at + 2)) return null;
  let offsetMinutes = twoDigits(text, at + 1) * 60;
  at += 3;
  if (at < text.length) {
    if (text.length !== at + 3 || text.charCodeAt(at) !== 58 || !isDigit(text, at + 1) || !isDigit(text, at + 2)) {
      return null;
    }
    offsetMinutes += twoDigits(text, at + 1);
  }
  const seconds = (twoDigits(text, 11) * 60 + twoDigits(text, 14)) * 60 + twoDigits(text, 17);
  const utc = daysFromCivil(year, twoDigits(text, 5), twoDigits(text, 8)) * dayMs + seconds * 1000 + milliseconds;
  return new Date(utc - (sign === 45 ? -1 : 1) * offsetMinutes * 60_000);
}

const dayMs = 86_400_000;

/**
 * Days from 1970-01-01 to a day of the proleptic Gregorian calendar, by arithmetic (the inverse of what
 * formatTimestamp does) rather than by `Date.UTC`, a call into V8's runtime. With the digits' places
 * named (above), a value is read in about 95 ns instead of 140 (docs/benchmarks.md, Session 49).
 * `month` is 1-12.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const marchYear = month <= 2 ? year - 1 : year; // years counted from March: the leap day ends them
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function parseTimestamptz(text: string): Date {
  return parseIsoTimestamptz(text) ?? standardParser(text);
}

/** pg's parsers, timestamptz's replaced: for a pool's `types` option (pg's global table is left as it is). */
export const pgTypeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === timestamptzOid && format !== 'binary'
      ? parseTimestamptz
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};
