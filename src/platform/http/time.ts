/** RFC 3339 times written to clients and read from them. */
const dayMs = 86_400_000;
const twoDigits = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const threeDigits = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/** 'YYYY-MM-DD' of a count of days since 1970-01-01 (the proleptic Gregorian calendar, by arithmetic). */
function civilDate(days: number): string | null {
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
  if (year < 0 || year > 9999) return null;
  return `${String(year).padStart(4, '0')}-${twoDigits[month]}-${twoDigits[day]}`;
}

/**
 * RFC 3339 with milliseconds and a numeric offset (always UTC): 2026-11-21T15:41:07.123+00:00.
 * Lists write two of these per item: written by arithmetic here, it costs a fraction of
 * toISOString's time; years outside 0000-9999 (which toISOString writes with a sign) go through it.
 */
export function formatTimestamp(date: Date): string {
  const time = date.getTime();
  const days = Math.floor(time / dayMs);
  const day = Number.isNaN(time) ? null : civilDate(days);
  if (day === null) return `${date.toISOString().slice(0, -1)}+00:00`; // an invalid date throws, as before
  const ofDay = time - days * dayMs;
  const seconds = Math.floor(ofDay / 1000);
  return `${day}T${twoDigits[Math.floor(seconds / 3600)]}:${twoDigits[Math.floor(seconds / 60) % 60]}:${twoDigits[seconds % 60]}.${threeDigits[ofDay % 1000]}+00:00`;
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
