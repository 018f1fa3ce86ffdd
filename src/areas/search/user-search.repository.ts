/**
 * GET /api/users/search from the index: candidates come from the indexes of the user documents only
 * (prefix and trigram on names, full text on the document), then the users' rows are joined through
 * accounts' read model to present them and to apply the live rule (a ban shows at once, even before
 * the document goes).
 *
 * Two statements, one per tier of score: the strong matches (exact, prefix, full text: scores 1 to 6)
 * and the fuzzy ones (trigram similarity alone: scores under 1). Every strong score is above every
 * fuzzy one, so a page is the strong tier's rows then the fuzzy tier's, and the fuzzy statement is sent
 * only when the strong one does not fill the page. The fuzzy arms match every name sharing enough
 * trigrams with the query, a number that grows with the users; the strong arms match what the query
 * spells (the prefixes on btrees: migrations/1920_search_users_prefix.sql), so a query with enough
 * strong matches costs about the same however many users there are.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
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

type Tier = 'strong' | 'fuzzy';
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

/** The score's fraction (< 1), rounded so the cursor round-trips exactly. */
const fraction = (value: SQL) => sql`least(${value}, 0.999999)`;

/** Scores from 1 up are the strong tier's, below 1 the fuzzy tier's (the fraction keeps them under 1). */
const strongFloor = 1;

/**
 * Whether a tier can hold rows of the page asked for: a page after a fuzzy score holds no strong row
 * (they all come before it), a page before a strong score no fuzzy row.
 */
function reachable(tier: Tier, page: PageRequest): boolean {
  const score = page.position?.[0];
  if (typeof score !== 'number') return true;
  if (tier === 'strong') return !(page.direction === 'after' && score < strongFloor);
  return !(page.direction === 'before' && score >= strongFloor);
}

export class UserSearchRepository extends Repository {
  /**
   * Discoverable users matching `query`, best first. Score tiers: exact username 5, exact nickname 4,
   * username prefix 3, nickname prefix 2 (plus the trigram similarity), a full-text match on the words
   * 1 (plus its rank), otherwise trigram similarity alone (< 1: typos).
   */
  async search(query: string, page: PageRequest, viewerId: string | null = null): Promise<Found[]> {
    // In the page's order: best first, or, for a page before a position, worst first (page.ts turns it round).
    const tiers: Tier[] = page.direction === 'before' ? ['fuzzy', 'strong'] : ['strong', 'fuzzy'];
    const found: Found[] = [];
    let normal: NormalQuery | undefined;
    for (const tier of tiers) {
      const wanted = page.limit + 1 - found.length;
      if (wanted <= 0) break;
      if (!reachable(tier, page)) continue;
      normal ??= await this.normalize(query);
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
    const q = sql`${normal.text}::text`;
    const prefix = likePrefix(q);
    const tsq = sql`${normal.words}::tsquery`;
    // The fuzzy arms read the query as an InitPlan's value, which the planner cannot weigh: weighed,
    // `name % 'kalomi'` looks wide enough that a scan of the whole table, computing the similarity of
    // every name, seemed cheaper than the trigram indexes (1 s at 100,000 users, against 30 ms).
    const fq = sql`(SELECT ${normal.text}::text)`;
    const strongMatch = sql`(${doc.name} like ${prefix} or ${doc.label} like ${prefix} or ${doc.document} @@ ${tsq})`;
    const strongScore = sql<number>`round((case
        when ${doc.name} = ${q} then 5
        when ${doc.label} = ${q} then 4
        when ${doc.name} like ${prefix} then 3 + ${fraction(sql`similarity(${doc.name}, ${q})`)}
        when ${doc.label} like ${prefix} then 2 + ${fraction(sql`similarity(${doc.label}, ${q})`)}
        else 1 + ${fraction(sql`ts_rank(${doc.document}, ${tsq}, 32)`)}
      end)::numeric, 6)::float8`;
    const fuzzyScore = sql<number>`round((${fraction(
      sql`greatest(similarity(${doc.name}, ${q}), word_similarity(${q}, ${doc.body}))`,
    )})::numeric, 6)::float8`;
    // A fuzzy match is one no strong arm matches (`is not true`: a query without words has no full text).
    const [matches, score] =
      tier === 'strong'
        ? [strongMatch, strongScore]
        : [sql`((${doc.name} % ${fq} or ${fq} <% ${doc.body}) and ${strongMatch} is not true)`, fuzzyScore];
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
