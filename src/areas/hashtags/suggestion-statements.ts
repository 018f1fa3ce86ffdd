/**
 * Hashtag autocomplete as prepared statements, one per kind (the tags starting with the query alone,
 * or with the similar ones after them) and page direction: the keyset condition and the order are part
 * of the text, so each connection parses and plans each once, where a statement built per request was
 * parsed and planned at every request. The plan is the same for every query: the prefix is a range of
 * the folded tags' btree (its bounds computed from $1 at execution), the similar tags the trigram
 * index's; tags compare in the "C" collation so both engines order them alike.
 *
 * Parameters: $1 the query, $2 the rows to read (limit + 1), then the cursor's (prefix, uses, tag).
 */
import { type PageRequest, pageDirections } from '../../platform/db/page-request.ts';
import { byKey } from '../../platform/db/prepared-reads.ts';
import { statement } from '../../platform/db/statements.ts';

/** An autocomplete suggestion: `prefix` 1 when the tag starts with the query, 0 when only similar. */
export interface SuggestionRow {
  prefix: number;
  tag: string;
  uses: number;
}

const low = 'lower(unaccent($1::text))';
const high = `(${low} || chr(1114111))`;

function suggestions(direction: PageRequest['direction'], similar: boolean) {
  const order = direction === 'before' ? 'ASC' : 'DESC';
  const position =
    direction === 'first' ? '' : `WHERE (prefix, uses, tag) ${direction === 'before' ? '>' : '<'} ($3, $4, $5)`;
  const similarTags = similar
    ? `UNION ALL
       SELECT 0, tag COLLATE "C", uses FROM hashtag_uses
       WHERE folded % ${low} AND NOT (folded >= ${low} AND folded < ${high})`
    : '';
  return statement<SuggestionRow>(
    `hashtags.suggestions.${direction}${similar ? '.similar' : ''}`,
    `SELECT prefix, tag, uses FROM (
       SELECT 1 AS prefix, tag COLLATE "C" AS tag, uses FROM hashtag_uses
       WHERE folded >= ${low} AND folded < ${high}
       ${similarTags}
     ) s
     ${position}
     ORDER BY prefix ${order}, uses ${order}, tag ${order}
     LIMIT $2`,
  );
}

export const suggestionStatements = byKey(pageDirections, (direction) => ({
  prefixes: suggestions(direction, false),
  similar: suggestions(direction, true),
}));

/** The values of a page's statement, in its parameters' order. */
export function suggestionValues(query: string, page: Pick<PageRequest, 'limit' | 'position'>): unknown[] {
  return page.position === null ? [query, page.limit + 1] : [query, page.limit + 1, ...page.position];
}
