/** RFC 3339 with milliseconds and a numeric offset (always UTC): 2026-11-21T15:41:07.123+00:00. */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString(); // always ends in Z
  return `${iso.slice(0, -1)}+00:00`;
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
