/**
 * What other areas put in their lists' statements so a viewer's `hide` filters leave rows out before the
 * page is cut (so a page stays full and its cursor exact): one condition, one line in a list's WHERE.
 *
 *   .where(and(..., notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)), where))
 *   repository.list(..., { hiddenBy: await filters.hiddenFor(viewerId, 'feeds') })
 *
 * `hidden` is FiltersService.hiddenFor's value: [] (an anonymous viewer, no filter in force) keeps
 * every row. Texts are folded as keywords are (lower(unaccent(...))), so case and accents never matter.
 */
import { type AnyColumn, type Placeholder, type SQL, sql } from 'drizzle-orm';

export const notHiddenByFilters = (hidden: Placeholder | SQL, text: SQL): SQL =>
  sql`(cardinality(${hidden}::text[]) = 0 OR lower(unaccent(${text})) !~ ALL (${hidden}::text[]))`;

/** What filters read of a media: its description, then its hashtags written `#tag`. */
export const mediaFilterText = (columns: { description: AnyColumn; hashtags: AnyColumn }): SQL =>
  sql`concat_ws(' ', ${columns.description}, '#' || nullif(array_to_string(${columns.hashtags}, ' #'), ''))`;

/** The same text for a media row in hand (the warnings read it from the page's rows). */
export const mediaFilterTextOf = (row: { description: string | null; hashtags: string[] }): string =>
  [row.description, row.hashtags.length > 0 ? `#${row.hashtags.join(' #')}` : null]
    .filter((part) => part !== null)
    .join(' ');

/** One text as filters read it (a comment's body): null reads as no text. */
export const filterText = (text: AnyColumn | SQL): SQL => sql`coalesce(${text}, '')`;
