/** RFC 3339 with milliseconds and a numeric offset (always UTC): 2026-11-21T15:41:07.123+00:00. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

export function formatNullableTimestamp(date: Date | null | undefined): string | null {
  return date ? formatTimestamp(date) : null;
}
