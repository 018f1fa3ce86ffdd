/**
 * Keyword filters: a user's words or phrases, and what the lists they read do with the items that match
 * (docs/api.md, Keyword filters). Every write goes through this service, under the user's lock.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import {
  type FilterAction,
  type FilterContext,
  filterLimits,
  normalizeContexts,
  normalizeExpiry,
  normalizeKeywords,
  normalizeTitle,
} from './filter-rules.ts';
import type { FiltersRepository, FilterWithKeywords } from './filters.repository.ts';
import type { FiltersCache } from './filters-cache.ts';
import type { FilterRow } from './tables.ts';
import { type FilterResult, ViewerFilters } from './viewer-filters.ts';

/** A filter as the API takes it (POST: all but expiresAt required; PATCH: any of them). */
export interface FilterBody {
  title?: string;
  context?: FilterContext[];
  action?: FilterAction;
  expiresAt?: string | null;
  keywords?: { keyword: string; wholeWord?: boolean }[];
}

export interface FiltersServiceDeps {
  transactions: Transactions;
  repository: FiltersRepository;
  cache: FiltersCache;
  users: UsersService;
  clock: Clock;
}

const filterNotFound = () =>
  new AppError('notFound', { source: { parameter: 'id' }, detail: 'no such filter of yours' });

export class FiltersService {
  readonly #deps: FiltersServiceDeps;

  constructor(deps: FiltersServiceDeps) {
    this.#deps = deps;
  }

  /** Counted under the user's lock, so parallel creations cannot pass the limit. */
  async create(
    userId: string,
    body: Required<Omit<FilterBody, 'expiresAt'>> & FilterBody,
  ): Promise<FilterWithKeywords> {
    const now = this.#deps.clock.now();
    const title = normalizeTitle(body.title);
    const expiresAt = normalizeExpiry(body.expiresAt, now);
    const keywords = normalizeKeywords(body.keywords);
    const contexts = normalizeContexts(body.context);
    return this.#deps.transactions.run(async () => {
      if ((await this.#deps.users.lock(userId)) === null) throw new AppError('notFound');
      if ((await this.#deps.repository.countOfUser(userId)) >= filterLimits.filtersPerUser) {
        throw new AppError('filterLimitReached', {
          meta: { limit: filterLimits.filtersPerUser },
          values: { limit: filterLimits.filtersPerUser },
        });
      }
      const row: FilterRow = {
        id: newId(),
        userId,
        title,
        contexts,
        action: body.action,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      };
      await this.#deps.repository.insert(row);
      await this.#deps.repository.replaceKeywords(row.id, keywords);
      await this.#deps.cache.changed(userId);
      return this.#requireOwn(userId, row.id);
    });
  }

  /** Changes what the body names; `keywords`, when given, replaces the whole list. */
  async update(userId: string, id: string, body: FilterBody): Promise<FilterWithKeywords> {
    const now = this.#deps.clock.now();
    const patch: Partial<FilterRow> = { updatedAt: now };
    if (body.title !== undefined) patch.title = normalizeTitle(body.title);
    if (body.context !== undefined) patch.contexts = normalizeContexts(body.context);
    if (body.action !== undefined) patch.action = body.action;
    if (body.expiresAt !== undefined) patch.expiresAt = normalizeExpiry(body.expiresAt, now);
    const keywords = body.keywords === undefined ? undefined : normalizeKeywords(body.keywords);
    return this.#deps.transactions.run(async () => {
      if ((await this.#deps.users.lock(userId)) === null) throw new AppError('notFound');
      if (!(await this.#deps.repository.update(userId, id, patch))) throw filterNotFound();
      if (keywords !== undefined) await this.#deps.repository.replaceKeywords(id, keywords);
      await this.#deps.cache.changed(userId);
      return this.#requireOwn(userId, id);
    });
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.#deps.transactions.run(async () => {
      if (!(await this.#deps.repository.delete(userId, id))) throw filterNotFound();
      await this.#deps.cache.changed(userId);
    });
  }

  list(userId: string, page: PageRequest): Promise<FilterWithKeywords[]> {
    return this.#deps.repository.list(userId, page);
  }

  async get(userId: string, id: string): Promise<FilterWithKeywords> {
    return this.#requireOwn(userId, id);
  }

  async #requireOwn(userId: string, id: string): Promise<FilterWithKeywords> {
    const found = await this.#deps.repository.find(userId, id);
    if (found === null) throw filterNotFound();
    return found;
  }

  /** The viewer's filters in force now (none for an anonymous viewer), read at most once per cache period. */
  async of(viewerId: string | null): Promise<ViewerFilters> {
    if (viewerId === null) return ViewerFilters.none;
    const filters = await this.#deps.cache.resolve(viewerId, () => this.#deps.repository.allOfUser(viewerId));
    // Most viewers have no filter: nothing to make for them (two calls a list request).
    return filters.length === 0 ? ViewerFilters.none : new ViewerFilters(filters, this.#deps.clock.now());
  }

  /**
   * What the viewer's lists of this context leave out: the value of `notHiddenByFilters` (read-model.ts)
   * in the list's statement, so the page is cut after the hidden rows are gone.
   */
  async hiddenFor(viewerId: string | null, context: FilterContext): Promise<string[]> {
    return (await this.of(viewerId)).hidden(context);
  }

  /**
   * The items with the viewer's warnings: when the viewer (anonymous, or with no `warn` filter in force
   * in this context: most viewers) has none, the items themselves, neither copied nor their texts made;
   * else each a copy with `filtered`, the filters its text matched ([] when none). A presenter reads
   * `filtered ?? []`; an item is taken as having no `filtered` of its own (no listed row has).
   */
  async warn<T>(
    viewerId: string | null,
    context: FilterContext,
    items: T[],
    textOf: (item: T) => string,
  ): Promise<Array<T & { filtered?: FilterResult[] }>> {
    if ((await this.of(viewerId)).warnings(context).length === 0)
      return items as Array<T & { filtered?: FilterResult[] }>;
    const warnings = await this.warningsFor(viewerId, context, items.map(textOf));
    return items.map((item, index) => ({ ...item, filtered: warnings[index] ?? [] }));
  }

  /**
   * The warnings of the viewer's `warn` filters on a page of items: for each text (in order), the filters
   * it matched with their matching keywords ([] when none). One statement, only when a filter is in force.
   */
  async warningsFor(viewerId: string | null, context: FilterContext, texts: string[]): Promise<FilterResult[][]> {
    const results: FilterResult[][] = texts.map(() => []);
    const keywords = (await this.of(viewerId)).warnings(context);
    if (keywords.length === 0 || texts.length === 0) return results;
    const matches = await this.#deps.repository.matches(
      texts,
      keywords.map((entry) => entry.pattern),
    );
    for (const { text, pattern } of matches.sort((a, b) => a.pattern - b.pattern)) {
      const keyword = keywords[pattern];
      const item = results[text];
      if (keyword === undefined || item === undefined) continue;
      let result = item.find((entry) => entry.id === keyword.filterId);
      if (result === undefined) {
        result = { id: keyword.filterId, title: keyword.title, matches: [] };
        item.push(result);
      }
      result.matches.push(keyword.keyword);
    }
    return results;
  }
}
