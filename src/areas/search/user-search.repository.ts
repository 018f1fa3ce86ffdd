/**
 * GET /api/users/search from the index: candidates come from the indexes of the user documents only
 * (prefix and trigram on names, full text on the document), then the users' rows are joined through
 * accounts' read model to present them and to apply the live rule (a ban shows at once, even before
 * the document goes).
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

/**
 * The words of the query as a prefix full-text query ('word':* & …): the words come from the `simple`
 * parser and are quoted, so no character of the query can break the tsquery syntax. NULL (matching
 * nothing) when the query has no word.
 */
const prefixTsQuery = (q: SQL) =>
  sql`(SELECT to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & ')) FROM unnest(to_tsvector('simple', ${q})))`;

/** The score's fraction (< 1), rounded so the cursor round-trips exactly. */
const fraction = (value: SQL) => sql`least(${value}, 0.999999)`;

export class UserSearchRepository extends Repository {
  /**
   * Discoverable users matching `query`, best first. Score tiers: exact username 5, exact nickname 4,
   * username prefix 3, nickname prefix 2 (plus the trigram similarity), a full-text match on the words
   * 1 (plus its rank), otherwise trigram similarity alone (< 1: typos).
   */
  search(
    query: string,
    page: PageRequest,
    viewerId: string | null = null,
  ): Promise<Array<{ user: PublicUserRow; score: number }>> {
    return this.searchQuery(query, page, viewerId).execute();
  }

  /**
   * The statement of search, unexecuted (its plan is checked in the tests); a signed-in viewer never
   * finds a user they block or who blocks them (accounts' rule).
   */
  searchQuery(query: string, page: PageRequest, viewerId: string | null = null) {
    const q = normalized(query);
    const prefix = likePrefix(q);
    const tsq = prefixTsQuery(q);
    const score = sql<number>`round((case
        when ${doc.name} = ${q} then 5
        when ${doc.label} = ${q} then 4
        when ${doc.name} like ${prefix} then 3 + ${fraction(sql`similarity(${doc.name}, ${q})`)}
        when ${doc.label} like ${prefix} then 2 + ${fraction(sql`similarity(${doc.label}, ${q})`)}
        when ${doc.document} @@ ${tsq} then 1 + ${fraction(sql`ts_rank(${doc.document}, ${tsq}, 32)`)}
        else ${fraction(sql`greatest(similarity(${doc.name}, ${q}), word_similarity(${q}, ${doc.body}))`)}
      end)::numeric, 6)::float8`;
    const matches = sql`(${doc.name} like ${prefix} or ${doc.label} like ${prefix} or ${doc.document} @@ ${tsq}
      or ${doc.name} % ${q} or ${q} <% ${doc.body})`;
    const { where, orderBy } = keyset({ columns: [score, doc.sourceId] }, page);
    // A viewer's blocks are never read from the replica (docs/development.md, Reads from the replica).
    return (viewerId === null ? this.replicaDb : this.db)
      .select({ user: publicUserColumns, score })
      .from(doc)
      .innerJoin(users, eq(users.id, doc.sourceId))
      .where(and(eq(doc.kind, 'user'), matches, discoverableUser(), shownTo(viewerId, users.id), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }
}
