/**
 * A box's longitudes are one span, or two across the antimeridian, and each kind gets prepared
 * statements of its own: with an OR of two spans in its text PostgreSQL planned a statement again at
 * every execution (the plan it would keep, a bitmap OR, looks dearer than one made for the values at
 * hand): 0.1 ms of planning for a 0.02 ms read of the map's cells (docs/benchmarks.md, Discovery).
 */
import { between, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { anyOf } from './conditions.ts';

export const longitudeSpans = ['oneSpan', 'twoSpans'] as const;
export type LongitudeSpans = (typeof longitudeSpans)[number];

/** `column` within the span `<from>1`..`<to>1`, or also `<from>2`..`<to>2` (the placeholders' names). */
export function inSpans(
  column: SQLWrapper,
  spans: LongitudeSpans,
  [from, to]: [string, string],
  value: (name: string) => SQLWrapper = (name) => sql.placeholder(name),
): SQL {
  const first = between(column, value(`${from}1`), value(`${to}1`));
  if (spans === 'oneSpan') return first;
  return anyOf(first, between(column, value(`${from}2`), value(`${to}2`)));
}
