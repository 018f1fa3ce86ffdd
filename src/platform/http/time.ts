/** RFC 3339 times written to clients and read from them. */
const dayMs = 86_400_000;
const zero = 48; // '0'
const [dash, colon, dot, letterT] = [45, 58, 46, 84];
const plus = 43;

/**
 * RFC 3339 with milliseconds and a numeric offset (always UTC): 2026-11-21T15:41:07.123+00:00.
 * Lists write two of these per item, so the text is made by arithmetic (the civil date of a count of
 * days, proleptic Gregorian) and written at once as one flat string of character codes: pieces joined
 * by a template left a chain of strings on the heap that JSON.stringify then copied flat again (about
 * 390 bytes of garbage a time, against 48; docs/benchmarks.md, Session 48). Years outside 0000-9999
 * (which toISOString writes with a sign) go through toISOString.
 */
export function formatTimestamp(date: Date): string {
  const time = date.getTime();
  const days = Math.floor(time / dayMs);
  const shifted = days + 719_468; // days since 0000-03-01
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  // NaN (an invalid date) fails the test too, and toISOString throws for it, as before.
  if (!(year >= 0 && year <= 9999)) return `${date.toISOString().slice(0, -1)}+00:00`;
  const ofDay = time - days * dayMs;
  const milliseconds = ofDay % 1000;
  const seconds = (ofDay - milliseconds) / 1000;
  const second = seconds % 60;
  const minute = ((seconds - second) / 60) % 60;
  const hour = Math.floor(seconds / 3600);
  return String.fromCharCode(
    zero + Math.floor(year / 1000),
    zero + (Math.floor(year / 100) % 10),
    zero + (Math.floor(year / 10) % 10),
    zero + (year % 10),
    dash,
    zero + Math.floor(month / 10),
    zero + (month % 10),
    dash,
    zero + Math.floor(day / 10),
    zero + (day % 10),
    letterT,
    zero + Math.floor(hour / 10),
    zero + (hour % 10),
    colon,
    zero + Math.floor(minute / 10),
    zero + (minute % 10),
    colon,
    zero + Math.floor(second / 10),
    zero + (second % 10),
    dot,
    zero + Math.floor(milliseconds / 100),
    zero + (Math.floor(milliseconds / 10) % 10),
    zero + (milliseconds % 10),
    plus,
    zero,
    zero,
    colon,
    zero,
    zero,
  );
}

export function formatNullableTimestamp(date: Date | null | undefined): string | null {
  return date ? formatTimestamp(date) : null;
}

/**
 * An RFC 3339 time from a client (the schema's `date-time` format checked its form) as a Date, or
 * null when no Date or no PostgreSQL timestamp can hold it: an invalid date, or a year outside 1 to
 * 9999 once moved to UTC (`0000-01-01T00:00:00Z`, `9999-12-31T23:59:59-23:59`).
 */
export function parseClientTime(value: string): Date | null {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date : null;
}
