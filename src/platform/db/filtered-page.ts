/**
 * A keyset page filtered in memory, kept full: for a reader whose statement cannot say the filter (a
 * viewer's hidden users over a list planned once for everyone). Reads the list on from the last row
 * read until `limit + 1` rows pass (so the page's cursors stay exact) or the list ends, at most
 * `maxReads` statements: past that the page ends short, and says no more follows.
 */
import type { Keyset } from './keyset.ts';
import type { PageRequest } from './page-request.ts';

export const filteredPageMaxReads = 10;

export async function filteredPage<Row>(
  page: PageRequest,
  keyset: Pick<Keyset<Row>, 'keyOf'>,
  read: (page: PageRequest) => Promise<Row[]>,
  keep: (row: Row) => boolean,
  maxReads = filteredPageMaxReads,
): Promise<Row[]> {
  const kept: Row[] = [];
  let request = page;
  for (let reads = 0; reads < maxReads; reads++) {
    const rows = await read(request);
    kept.push(...rows.filter(keep));
    const last = rows[rows.length - 1];
    if (kept.length > page.limit || rows.length <= request.limit || last === undefined) break;
    // On from the last row read, in the page's own direction (a page before a cursor is read backwards).
    request = { ...page, direction: page.direction === 'before' ? 'before' : 'after', position: keyset.keyOf(last) };
  }
  return kept.slice(0, page.limit + 1);
}
