/**
 * Hashtag autocomplete as prepared statements, one per kind (the tags starting with the query alone,
 * or with the similar ones after them) and page direction: the keyset condition and the order are part
 * of the text, so each connection parses and plans each once. The plan is the same for every query,
 * and what it reads is bounded whatever the number of tags (a first letter typed matches a
 * twentieth of them; read whole, a million tags would be sorted by uses at every keystroke):
 * - the tags starting with the query: the first `prefixTags` in code-point order of the folded tags'
 *   btree (ties by tag), and those among the `popularTags` most used (an index in that order), ranked
 *   by uses. A query with no more prefix matches than `prefixTags` gets them all; a broader one, its
 *   most used tags and the first ones by letter.
 * - the similar ones (pg_trgm's `%`, threshold 0.3): among the tags of the `nearTags` distinct folded
 *   tags on each side of the query's prefix range in code-point order and from its stem on (a loose
 *   index scan: one btree step each), and the `similarPopularTags` most used. A typo after a tag's
 *   first letters leaves it among its neighbours (docs/api.md, Hashtags).
 * Tags compare in the "C" collation so both engines order them alike.
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

/** How many tags each source of candidates gives (see the header). */
export const suggestionBounds = { prefixTags: 200, popularTags: 300, nearTags: 10, similarPopularTags: 100 } as const;
const { prefixTags, popularTags, nearTags, similarPopularTags } = suggestionBounds;

// The query folded once (unaccent is only stable: written in a condition it would run for every row).
// Its stem (all but its last letter, from three letters on) starts the third side of its neighbours.
const folded = `folded_query AS MATERIALIZED (
  SELECT low, low || chr(1114111) AS high, CASE WHEN length(low) >= 3 THEN left(low, -1) END AS stem
  FROM (SELECT lower(unaccent($1::text)) AS low) AS query)`;
const low = '(SELECT low FROM folded_query)';
const high = '(SELECT high FROM folded_query)';
const inPrefix = (folded: string) => `(${folded} >= ${low} AND ${folded} < ${high})`;

/** The most used tags (hashtag_uses_most_used: an index-only scan in that order). */
const popular = `popular AS (
  SELECT tag, folded, uses FROM hashtag_uses ORDER BY uses DESC, tag COLLATE "C" LIMIT ${popularTags})`;

/**
 * The tags starting with the query: the first by letter, and the most used (see the header). The first
 * `prefixTags` from the query on in the btree's order are read, then those past the prefix dropped:
 * a range with both ends unknown is estimated at 0.5 % of the table by the plan kept for every query,
 * which on a small table is a bitmap scan sorting every match (thousands for a first letter); from one
 * end, at a third of the table, which the index's order and the limit serve.
 */
const prefixed = `prefixed AS (
  SELECT tag, uses FROM (
    SELECT tag, folded, uses FROM hashtag_uses WHERE folded >= ${low} ORDER BY folded, tag COLLATE "C" LIMIT ${prefixTags}
  ) AS first_by_letter WHERE folded < ${high}
  UNION
  SELECT tag, uses FROM popular WHERE ${inPrefix('folded')})`;

/**
 * `nearTags` distinct folded tags after the prefix range (`after`), before it (`before`), or from the
 * query's stem on (`stem`: a tag that other tags extend, `paris` before `paris1`…`parisnight`, sorts
 * far from a typo of its last letter, `pariz`), one btree step each.
 */
const side = (name: 'after' | 'before' | 'stem') => {
  const [first, step, pick] = {
    after: [`>= ${high}`, '>', 'min'],
    before: [`< ${low}`, '<', 'max'],
    stem: ['>= (SELECT stem FROM folded_query)', '>', 'min'],
  }[name];
  return `${name}(folded, n) AS (
    SELECT (SELECT ${pick}(folded) FROM hashtag_uses WHERE folded ${first}), 1
    UNION ALL
    SELECT (SELECT ${pick}(folded) FROM hashtag_uses WHERE folded ${step} ${name}.folded), n + 1
    FROM ${name} WHERE ${name}.folded IS NOT NULL AND n < ${nearTags})`;
};

/** The similar tags' candidates: the tags of the neighbours, and the most used. */
const similarCandidates = `similar_candidates AS (
  SELECT near_tag.tag, near_tag.folded, near_tag.uses
  FROM (SELECT folded FROM after UNION SELECT folded FROM before UNION SELECT folded FROM stem) AS near
  CROSS JOIN LATERAL (SELECT tag, folded, uses FROM hashtag_uses WHERE folded = near.folded ORDER BY tag COLLATE "C" LIMIT ${nearTags}) AS near_tag
  UNION
  (SELECT tag, folded, uses FROM popular ORDER BY uses DESC, tag COLLATE "C" LIMIT ${similarPopularTags}))`;

function suggestions(direction: PageRequest['direction'], similar: boolean) {
  const order = direction === 'before' ? 'ASC' : 'DESC';
  const position =
    direction === 'first' ? '' : `WHERE (prefix, uses, tag) ${direction === 'before' ? '>' : '<'} ($3, $4, $5)`;
  const ctes = similar
    ? `WITH RECURSIVE ${folded}, ${popular}, ${prefixed}, ${side('after')}, ${side('before')}, ${side('stem')}, ${similarCandidates}`
    : `WITH ${folded}, ${popular}, ${prefixed}`;
  const similarTags = similar
    ? `UNION ALL
       SELECT 0, tag COLLATE "C", uses FROM similar_candidates
       WHERE folded % ${low} AND NOT ${inPrefix('folded')}`
    : '';
  return statement<SuggestionRow>(
    `hashtags.suggestions.${direction}${similar ? '.similar' : ''}`,
    `${ctes}
     SELECT prefix, tag, uses FROM (
       SELECT 1 AS prefix, tag COLLATE "C" AS tag, uses FROM prefixed
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
