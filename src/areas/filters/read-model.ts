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

/** The same condition in a raw statement's text (notifications' feed statements): `hidden` is a text[] expression. */
export const notHiddenByFiltersText = (hidden: string, text: string): string =>
  `(cardinality(${hidden}) = 0 OR lower(unaccent(${text})) !~ ALL (${hidden}))`;

/**
 * What filters read of a notification: the names frozen in its data (the actor's display name and
 * username, a badge's label, a title), not the sentence around them, which every notification of a kind shares.
 */
export const notificationTextKeys = [
  'actorDisplayName',
  'actorUsername',
  'label',
  'titleLabel',
  'displayTitle',
] as const;

/** That text in SQL, from the jsonb column named `data`. */
export const notificationFilterText = (data: string): string =>
  `concat_ws(' ', ${notificationTextKeys.map((key) => `${data}->>'${key}'`).join(', ')})`;

/** The same text for a notification in hand (the warnings read it from the page's rows). */
export const notificationFilterTextOf = (data: Record<string, unknown>): string =>
  notificationTextKeys
    .map((key) => data[key])
    .filter((value): value is string => typeof value === 'string')
    .join(' ');

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
