/**
 * GET /api/users/search from the index: candidates come from the indexes of the user documents only
 * (prefix btrees on names, full text on the document, trigrams on names), then the users' rows are
 * joined through accounts' read model to present them and to apply the live rule (a ban shows at once,
 * even before the document goes).
 *
 * Three statements, one per tier of score, each sent only when the tiers above it do not fill the page
 * (every score of a tier is above every score of the next, so a page is the first tier's rows, then
 * the second's, then the third's):
 * - prefixes (scores 2 to 5: exact and prefix matches of the username and the nickname): each name's
 *   arm reads at most `prefixArmLimit` of its matches, in the btree's order (migrations/
 *   1920_search_users_prefix.sql), and ranks those; the exact name sorts first in its arm, so it is
 *   always among them. A query as short as a typed first letter matches a twentieth of the users; read
 *   whole, its matches cost a second at a million users, read so they cost the same at any size.
 * - words (scores 1 to 2: every word of the query the prefix of a word of the name or nickname, the
 *   names that the prefix arms did not match): the full-text index's matches.
 * - fuzzy (scores under 1: trigram similarity alone, a typo): only for a query with a word of three
 *   letters or digits or more; a shorter one shares its only trigrams with every name that starts like
 *   it, so the index would hand every such name to be checked, and finds nothing a typo would explain.
 * The words and fuzzy tiers read what the index hands them, a number that grows with the users; they
 * run only for the queries the prefixes do not answer (docs/benchmarks.md: user search at two sizes).
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import { likePrefix } from '../../platform/db/like.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import {
  discoverableUser,
  type PublicUserRow,
  publicUserColumns,
  shownTo,
  userRows as users,
} from '../accounts/read-model.ts';
import { normalized } from './sources.ts';
import { searchDocuments as doc } from './tables.ts';

/** Search results, best score first; the score is the query's own expression, so it is given there. */
export const userSearchKeyset = defineKeyset<{ score: number; user: PublicUserRow }>({
  name: 'user-search',
  shape: ['number', 'uuid'],
  columns: [],
  keyOf: (row) => [row.score, row.user.id],
});

/** The tiers of score, best first, each with the scores it gives (from `floor`, under `ceiling`). */
const tiers = {
  prefixes: { floor: 2, ceiling: Number.POSITIVE_INFINITY },
  words: { floor: 1, ceiling: 2 },
  fuzzy: { floor: 0, ceiling: 1 },
} as const;
type Tier = keyof typeof tiers;
const tiersBestFirst: Tier[] = ['prefixes', 'words', 'fuzzy'];

/** The most matches each name's prefix arm ranks (the username's, the nickname's): see the header. */
export const prefixArmLimit = 200;

type Found = { user: PublicUserRow; score: number };
/** The query normalized (UserSearchRepository.normalize): its text, and its words as a tsquery (null: none). */
type NormalQuery = { text: string; words: string | null };

/**
 * The words of the query as a prefix full-text query ('word':* & …): the words come from the `simple`
 * parser and are quoted, so no character of the query can break the tsquery syntax. NULL (matching
 * nothing) when the query has no word.
 */
const prefixTsQuery = (q: SQL) =>
  sql`(SELECT to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & ')) FROM unnest(to_tsvector('simple', ${q})))`;

/** A score's fraction, kept under 1 so that it never reaches the next tier's scores. */
const fraction = (value: SQL) => sql`least(${value}, 0.999999)`;

/** The score rounded so that the cursor round-trips exactly. */
const rounded = (score: SQL) => sql<number>`round((${score})::numeric, 6)::float8`;

/**
 * Whether a tier can hold rows of the page asked for: a page after a score holds no row of a tier
 * whose scores are all above it, a page before a score none of a tier whose scores are all below it.
 */
function reachable(tier: Tier, page: PageRequest): boolean {
  const score = page.position?.[0];
  if (typeof score !== 'number') return true;
  if (page.direction === 'after') return score >= tiers[tier].floor;
  return score < tiers[tier].ceiling;
}

/** Whether the fuzzy tier may run: a word of three letters or digits (see the header). */
const hasTrigramWord = (text: string) => /[\p{L}\p{N}]{3}/u.test(text);

/** The documents read by the prefix arms, under their own name (the statement reads the table twice). */
const arm = alias(doc, 'arm');

/**
 * A prefix arm: the first `prefixArmLimit` user documents whose `column` starts with the prefix, in the
 * btree's order (`~<~`, the order of text_pattern_ops), ties by id, so the same query ranks the same
 * documents on every page.
 */
const prefixArm = (column: typeof arm.name | typeof arm.label, prefix: SQL) =>
  sql`(SELECT ${arm.sourceId} FROM ${doc} ${arm}
       WHERE ${arm.kind} = 'user' AND ${column} like ${prefix}
       ORDER BY ${column} USING ~<~, ${arm.sourceId} LIMIT ${sql.raw(String(prefixArmLimit))})`;

/** What a tier matches and the score it gives (see the header). */
function tierClauses(tier: Tier, normal: NormalQuery): { matches: SQL; score: SQL<number> } {
  const q = sql`${normal.text}::text`;
  const prefix = likePrefix(q);
  const tsq = sql`${normal.words}::tsquery`;
  const prefixMatch = sql`(${doc.name} like ${prefix} or ${doc.label} like ${prefix})`;
  switch (tier) {
    case 'prefixes':
      return {
        matches: sql`${doc.sourceId} in (${prefixArm(arm.name, prefix)} union all ${prefixArm(arm.label, prefix)})`,
        score: rounded(sql`case
          when ${doc.name} = ${q} then 5
          when ${doc.label} = ${q} then 4
          when ${doc.name} like ${prefix} then 3 + ${fraction(sql`similarity(${doc.name}, ${q})`)}
          else 2 + ${fraction(sql`similarity(${doc.label}, ${q})`)}
        end`),
      };
    case 'words':
      // The names a prefix arm matched belong to that tier, ranked or not (`is not true`: no words, no match).
      return {
        matches: sql`${doc.document} @@ ${tsq} and ${prefixMatch} is not true`,
        score: rounded(sql`1 + ${fraction(sql`ts_rank(${doc.document}, ${tsq}, 32)`)}`),
      };
    case 'fuzzy': {
      // The query as an InitPlan's value, which the planner cannot weigh: weighed, `name % 'kalomi'`
      // looks wide enough that a scan of the whole table, computing the similarity of every name,
      // seemed cheaper than the trigram indexes (1 s at 100,000 users, against 30 ms).
      const fq = sql`(SELECT ${normal.text}::text)`;
      const aboveMatch = sql`(${prefixMatch} or ${doc.document} @@ ${tsq})`;
      return {
        matches: sql`((${doc.name} % ${fq} or ${fq} <% ${doc.body}) and ${aboveMatch} is not true)`,
        score: rounded(fraction(sql`greatest(similarity(${doc.name}, ${q}), word_similarity(${q}, ${doc.body}))`)),
      };
    }
  }
}

export class UserSearchRepository extends Repository {
  /**
   * Discoverable users matching `query`, best first. Scores: exact username 5, exact nickname 4,
   * username prefix 3, nickname prefix 2 (plus the trigram similarity), a full-text match on the words
   * 1 (plus its rank), otherwise trigram similarity alone (< 1: typos). One statement a tier, while the
   * page is not full (see the header).
   */
  async search(query: string, page: PageRequest, viewerId: string | null = null): Promise<Found[]> {
    // In the page's order: best first, or, for a page before a position, worst first (page.ts turns it round).
    const order = page.direction === 'before' ? tiersBestFirst.toReversed() : tiersBestFirst;
    const found: Found[] = [];
    let normal: NormalQuery | undefined;
    for (const tier of order) {
      const wanted = page.limit + 1 - found.length;
      if (wanted <= 0) break;
      if (!reachable(tier, page)) continue;
      normal ??= await this.normalize(query);
      if (tier === 'fuzzy' && !hasTrigramWord(normal.text)) continue;
      found.push(...(await this.searchQuery(normal, page, viewerId, tier, wanted).execute()));
    }
    return found;
  }

  /**
   * The query as the index stores its texts (sources.ts) and its words as a prefix full-text query,
   * read first so that the tiers' statements bind them as values: the strong statement is planned for
   * them (the LIKE prefix a range of the btrees, the words weighed against the statistics), and they
   * are computed once rather than once per row and per use (unaccent is only stable).
   */
  async normalize(query: string): Promise<NormalQuery> {
    const text = normalized(query);
    const [row] = await this.replicaDb
      .select({ text: sql<string>`${text}`, words: sql<string | null>`${prefixTsQuery(text)}::text` })
      .from(sql`(SELECT 1) AS one`);
    return row ?? { text: '', words: null };
  }

  /**
   * One tier's statement for the normalized query (normalize), unexecuted (its plan is checked in the
   * tests); a signed-in viewer never finds a user they block or who blocks them (accounts' rule).
   */
  searchQuery(normal: NormalQuery, page: PageRequest, viewerId: string | null, tier: Tier, limit = page.limit + 1) {
    const { matches, score } = tierClauses(tier, normal);
    const { where, orderBy } = keyset({ columns: [score, doc.sourceId] }, page);
    // A viewer's blocks are never read from the replica (docs/development.md, Reads from the replica).
    return (viewerId === null ? this.replicaDb : this.db)
      .select({ user: publicUserColumns, score })
      .from(doc)
      .innerJoin(users, eq(users.id, doc.sourceId))
      .where(and(eq(doc.kind, 'user'), matches, discoverableUser(), shownTo(viewerId, users.id), where))
      .orderBy(...orderBy)
      .limit(limit);
  }
}
