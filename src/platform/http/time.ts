/** RFC 3339 with milliseconds and a numeric offset (always UTC): 2026-11-21T15:41:07.123+00:00. */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString(); // always ends in Z
  return `${iso.slice(0, -1)}+00:00`;
}

export function formatNullableTimestamp(date: Date | null | undefined): string | null {
  return date ? formatTimestamp(date) : null;
}
