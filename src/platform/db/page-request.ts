/**
 * The page of a keyset list a caller asks for: the first page, the page after a position or the page
 * before one, at most `limit` rows. Repositories fetch limit + 1 rows to know whether another page
 * exists in that direction (page.ts).
 */
import type { KeyValue } from './keyset.ts';

export const pageDirections = ['first', 'after', 'before'] as const;

export interface PageRequest {
  direction: (typeof pageDirections)[number];
  position: KeyValue[] | null;
  limit: number;
  /** The list's name, written into the cursors of its pages. */
  list: string;
}

/** The first page of a list, for lists a page or a feed shows without paging them. */
export const firstPage = (limit: number, list: string): PageRequest => ({
  direction: 'first',
  position: null,
  limit,
  list,
});

/** The page size of a list that names none. */
export const defaultPageLimit = 20;
