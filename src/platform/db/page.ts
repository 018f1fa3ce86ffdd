/** A page of a keyset list: its rows in the list's order and the cursors of its neighbours. */
import type { Keyset } from './keyset.ts';
import { encodeCursor } from './keyset-cursor.ts';
import type { PageRequest } from './page-request.ts';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  prevCursor: string | null;
}

/** Turns the limit + 1 rows fetched for a request into its page (a 'before' page was read backwards). */
export function pageOf<T>(rows: T[], request: PageRequest, { keyOf }: Pick<Keyset<T>, 'keyOf'>): Page<T> {
  const hasMore = rows.length > request.limit;
  const items = rows.slice(0, request.limit);
  if (request.direction === 'before') items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  if (first === undefined || last === undefined) return { items, nextCursor: null, prevCursor: null };
  const moreAfter = request.direction === 'before' ? true : hasMore;
  const moreBefore = request.direction === 'first' ? false : request.direction === 'after' ? true : hasMore;
  return {
    items,
    nextCursor: moreAfter ? encodeCursor(request.list, keyOf(last)) : null,
    prevCursor: moreBefore ? encodeCursor(request.list, keyOf(first)) : null,
  };
}
