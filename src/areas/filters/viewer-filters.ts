/**
 * One viewer's filters in force at one moment, by context and action: what their lists leave out (the
 * patterns `notHiddenByFilters` takes) and the keywords whose matches carry a warning.
 */
import type { FilterAction, FilterContext } from './filter-rules.ts';
import type { FilterWithKeywords } from './filters.repository.ts';
import { combinedPatterns, keywordPattern } from './keyword-patterns.ts';

/** One keyword of a `warn` filter in force, with its pattern. */
export interface WarningKeyword {
  filterId: string;
  title: string;
  keyword: string;
  pattern: string;
}

/** What a warned item carries: each filter it matched, with the keywords that matched it. */
export interface FilterResult {
  id: string;
  title: string;
  matches: string[];
}

export class ViewerFilters {
  static readonly none = new ViewerFilters([], new Date(0));
  readonly #filters: FilterWithKeywords[];
  readonly #now: Date;

  constructor(filters: FilterWithKeywords[], now: Date) {
    this.#filters = filters;
    this.#now = now;
  }

  #inForce(context: FilterContext, action: FilterAction): FilterWithKeywords[] {
    return this.#filters.filter(
      (filter) =>
        filter.action === action &&
        filter.contexts.includes(context) &&
        (filter.expiresAt === null || filter.expiresAt.getTime() > this.#now.getTime()),
    );
  }

  /** The patterns a row's text must match none of to be listed in this context ([]: nothing is hidden). */
  hidden(context: FilterContext): string[] {
    if (this.#filters.length === 0) return [];
    const patterns = this.#inForce(context, 'hide').flatMap((filter) =>
      filter.keywords.map((entry) => keywordPattern(entry.folded, entry.wholeWord)),
    );
    return combinedPatterns(patterns);
  }

  /** The keywords of the `warn` filters in force in this context. */
  warnings(context: FilterContext): WarningKeyword[] {
    if (this.#filters.length === 0) return [];
    return this.#inForce(context, 'warn').flatMap((filter) =>
      filter.keywords.map((entry) => ({
        filterId: filter.id,
        title: filter.title,
        keyword: entry.keyword,
        pattern: keywordPattern(entry.folded, entry.wholeWord),
      })),
    );
  }
}
