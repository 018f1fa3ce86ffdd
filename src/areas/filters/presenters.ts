import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { filterActions, filterContexts } from './filter-rules.ts';
import type { FilterWithKeywords } from './filters.repository.ts';
import type { FilterResult } from './viewer-filters.ts';

const oneOf = (values: readonly string[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const FilterSchema = ResourceSchema(
  'filters',
  Type.Object({
    title: Type.String(),
    context: Type.Array(oneOf(filterContexts), { description: 'where it applies' }),
    action: oneOf(filterActions),
    expiresAt: Nullable(Timestamp),
    keywords: Type.Array(Type.Object({ keyword: Type.String(), wholeWord: Type.Boolean() })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  undefined,
  'Filter',
);

export function presentFilter(row: FilterWithKeywords) {
  return resource('filters', row.id, {
    title: row.title,
    context: row.contexts,
    action: row.action,
    expiresAt: formatNullableTimestamp(row.expiresAt),
    keywords: row.keywords.map(({ keyword, wholeWord }) => ({ keyword, wholeWord })),
    createdAt: formatTimestamp(row.createdAt),
    updatedAt: formatTimestamp(row.updatedAt),
  });
}

/**
 * What an item a `warn` filter matched carries (in its resource `meta.filtered`): each filter, by id and
 * title, with the keywords that matched, so a client can show the item behind a warning.
 */
export const FilteredSchema = Type.Array(
  Type.Object({ id: Type.String({ format: 'uuid' }), title: Type.String(), matches: Type.Array(Type.String()) }),
  { description: 'the warn filters of the viewer this item matched, with the matching keywords ([]: none)' },
);
export type Filtered = FilterResult[];

/** A listed item's `meta`: present only when a warn filter of the viewer matched it. */
export const FilteredMeta = Type.Optional(Type.Object({ filtered: FilteredSchema }));

/** The `meta` of an item with its warnings: none when nothing matched (so nothing changes for anyone else). */
export const filteredMeta = (filtered: FilterResult[]) => (filtered.length > 0 ? { meta: { filtered } } : {});

/** A `meta` of the item's own, with `filtered` only when a warn filter of the viewer matched it. */
export const withFiltered = <M extends object>(meta: M, filtered: FilterResult[] | undefined) =>
  filtered === undefined || filtered.length === 0 ? meta : { ...meta, filtered };
