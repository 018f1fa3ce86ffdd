/**
 * GET /api/users/search from the index: candidates come from the indexes of the user documents only
 * (prefix btrees on names, full text on the document, the btree of their words), then the users' rows
 * are joined through accounts' read model to present them and to apply the live rule (a ban shows at
 * once, even before the document goes).
 *
 * Three statements, one per tier of score, each sent only when the tiers above it do not fill the page
 * (every score of a tier is above every score of the next, so a page is the first tier's rows, then
 * the second's, then the third's):
 * - prefixes (scores 2 to 5: exact and prefix matches of the username and the nickname): each name's
 *   arm reads at most `armLimit` of its matches, in the btree's order, ties by id (migrations/
 *   1975_search_users_prefix_ties.sql), and ranks those; the exact name sorts first in its arm, so it is
 *   always among them. A query as short as a typed first letter matches a twentieth of the users; read
 *   whole, its matches cost a second at a million users, read so they cost the same at any size.
 * - words (scores 1 to 2: every word of the query the prefix of a word of the name or nickname): at
 *   most `armLimit` of the full-text index's matches, less the names a prefix arm matches.
 * - fuzzy (scores under 1: trigram similarity alone, a typo): candidates are the users of the words
 *   nearest the query's words in code-point order (search_user_words, migrations/
 *   1970_search_user_words.sql: typoCandidates), ranked by the similarity of their names; only for a
 *   query with a word of three characters or more (a shorter one has no trigram of its own). The
 *   trigram indexes handed over every name sharing a trigram with the query: at a million users, a
 *   typo cost half a second of the database; the neighbours cost the same at any size, and find a typo
 *   made after a word's first letters.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database.ts';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keysetTemplate, positionValues } from '../../platform/db/keyset-sql.ts';
import { likePrefix } from '../../platform/db/like.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import {
  discoverableUser,
  type PublicUserRow,
  publicUserColumns,
  shownTo,
  userRows as users,
} from '../accounts/read-model.ts';
import { normalized } from './sources.ts';
import { searchDocuments as doc, searchUserWords } from './tables.ts';

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

/** The most candidates an arm ranks (each name's prefixes, the words): see the header. */
export const armLimit = 200;

type Found = { user: PublicUserRow; score: number };
/**
 * The query normalized (UserSearchRepository.normalize): its text, its words as a tsquery (null: none),
 * and the words a typo is looked for from (typoWords).
 */
type NormalQuery = { text: string; words: string | null; typoWords: string[] };

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

/**
 * The words of the query a typo is looked for from: its first three of three characters or more (see
 * the header), as the documents' words are written (the `simple` configuration's lexemes).
 */
const typoWordsOf = (q: SQL) =>
  sql`(SELECT coalesce(array_agg(lexeme ORDER BY first), '{}') FROM (
         SELECT lexeme, positions[1] AS first FROM unnest(to_tsvector('simple', ${q}))
         WHERE length(lexeme) >= 3 ORDER BY positions[1] LIMIT 3) AS words)`;

/** The words read on each side of a query's word in code-point order, and the users read for each. */
const typoNeighbours = { words: 10, usersPerWord: 10 } as const;

/**
 * The typo tier's candidates: for each of the query's typo words, the `typoNeighbours.words` distinct
 * words of the users' documents that follow it in code-point order, as many that precede it, and as
 * many from its stem on (all but its last letter: a word that others extend, maria before mariabelle,
 * mariachi…, sorts far from a typo of its last letter, marix), each one step of the btree (a loose
 * index scan), and up to `typoNeighbours.usersPerWord` users of each, in id order. A typo near a
 * word's end leaves it among its neighbours unless 10 distinct words sort between them (docs/api.md);
 * the read is the same at any number of users.
 */
function typoCandidates(typoWords: SQL[]): SQL {
  const { words, usersPerWord } = typoNeighbours;
  const w = searchUserWords;
  const side = (name: string, word: SQL, next: 'min' | 'max', from: '>=' | '<', step: '>' | '<') =>
    sql`${sql.raw(name)}(word, n) AS (
          SELECT (SELECT ${sql.raw(next)}(${w.word}) FROM ${w} WHERE ${w.word} ${sql.raw(from)} ${word}::text), 1
          UNION ALL
          SELECT (SELECT ${sql.raw(next)}(${w.word}) FROM ${w} WHERE ${w.word} ${sql.raw(step)} ${sql.raw(name)}.word), n + 1
          FROM ${sql.raw(name)} WHERE ${sql.raw(name)}.word IS NOT NULL AND n < ${sql.raw(String(words))})`;
  const sides = typoWords.flatMap((word, i) => [
    side(`after${i}`, word, 'min', '>=', '>'),
    side(`before${i}`, word, 'max', '<', '<'),
    side(`stem${i}`, sql`left(${word}::text, -1)`, 'min', '>=', '>'),
  ]);
  const near = sql.join(
    typoWords.flatMap((_, i) => ['after', 'before', 'stem'].map((name) => sql.raw(`SELECT word FROM ${name}${i}`))),
    sql` UNION `,
  );
  return sql`(WITH RECURSIVE ${sql.join(sides, sql`, `)}, near(word) AS (${near})
    SELECT users_of_word.source_id FROM near CROSS JOIN LATERAL (
      SELECT ${w.sourceId} AS source_id FROM ${w} WHERE ${w.word} = near.word
      ORDER BY ${w.sourceId} LIMIT ${sql.raw(String(usersPerWord))}) AS users_of_word
    WHERE near.word IS NOT NULL)`;
}

/** The documents read by the prefix arms, under their own name (the statement reads the table twice). */
const arm = alias(doc, 'arm');

/**
 * A prefix arm: the first `armLimit` user documents whose `column` starts with the prefix, in the
 * btree's order (`~<~`, the order of text_pattern_ops), ties by id, so the same query ranks the same
 * documents on every page.
 */
const prefixArm = (column: typeof arm.name | typeof arm.label, prefix: SQL) =>
  sql`(SELECT ${arm.sourceId} FROM ${doc} ${arm}
       WHERE ${arm.kind} = 'user' AND ${column} like ${prefix}
       ORDER BY ${column} USING ~<~, ${arm.sourceId} LIMIT ${sql.raw(String(armLimit))})`;

/**
 * The words arm: the first `armLimit` user documents, in the table's order, whose words the query's
 * words prefix. The full-text index has no order, so which ones is the table's; PostgreSQL reads the
 * index, or the table until it has found them when they are many.
 */
const wordsArm = (tsq: SQL) =>
  sql`(SELECT ${arm.sourceId} FROM ${doc} ${arm}
       WHERE ${arm.kind} = 'user' AND ${arm.document} @@ ${tsq}
       LIMIT ${sql.raw(String(armLimit))})`;

/**
 * What a tier's statement depends on besides its values: the tier, the page's direction, whether a
 * viewer's blocks apply, and how many typo words the query has (the fuzzy tier reads each's neighbours).
 */
interface TierShape {
  tier: Tier;
  direction: PageRequest['direction'];
  signedIn: boolean;
  typoWords: number;
}

/** The query's typo words as the placeholders typo0, typo1, … of a shape with `count` of them. */
const typoPlaceholders = (count: number) =>
  Array.from({ length: count }, (_, index) => sql`${sql.placeholder(`typo${index}`)}`);

/** What a tier matches and the score it gives (see the header), its values as placeholders (valuesOf). */
function tierClauses(tier: Tier, typoWords: number): { matches: SQL; score: SQL<number> } {
  const q = sql`${sql.placeholder('text')}::text`;
  const prefix = likePrefix(q);
  const tsq = sql`${sql.placeholder('words')}::tsquery`;
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
        matches: sql`${doc.sourceId} in ${wordsArm(tsq)} and ${prefixMatch} is not true`,
        score: rounded(sql`1 + ${fraction(sql`ts_rank(${doc.document}, ${tsq}, 32)`)}`),
      };
    case 'fuzzy': {
      // Similar enough by pg_trgm's thresholds (`%`, `<%`), among the candidates only: an array computed
      // first, whose documents are read by key, whatever the planner makes of the similarity's selectivity.
      const aboveMatch = sql`(${prefixMatch} or ${doc.document} @@ ${tsq})`;
      return {
        matches: sql`${typoWords === 0 ? sql`false` : sql`${doc.sourceId} = any(array${typoCandidates(typoPlaceholders(typoWords))})`}
          and (${doc.name} % ${q} or ${q} <% ${doc.body}) and ${aboveMatch} is not true`,
        score: rounded(fraction(sql`greatest(similarity(${doc.name}, ${q}), word_similarity(${q}, ${doc.body}))`)),
      };
    }
  }
}

export class UserSearchRepository extends Repository {
  /**
   * Each shape's statement (TierShape), built once with its values as placeholders and its rows mapped
   * by the mapping compiled for it. Unnamed (`''`): PostgreSQL plans it for the values at every
   * execution, as it must, since its right plan depends on them (a LIKE pattern is a range of the btree
   * only when its value is known, a query's words are frequent or rare).
   */
  readonly #tierReads = new Map<string, PreparedRead<Found>>();

  /** The query normalized (normalize), a named statement: its plan is the same for every query. */
  readonly #normalize = new PreparedRead<NormalQuery>(this.replicaSource, 'search.users.normalize', (db) => {
    const text = normalized(sql`${sql.placeholder('query')}::text`);
    return db
      .select({
        text: sql<string>`${text}`,
        words: sql<string | null>`${prefixTsQuery(text)}::text`,
        typoWords: sql<string[]>`${typoWordsOf(text)}`,
      })
      .from(sql`(SELECT 1) AS one`);
  });

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
      if (tier === 'fuzzy' && normal.typoWords.length === 0) continue;
      const shape = {
        tier,
        direction: page.direction,
        signedIn: viewerId !== null,
        typoWords: normal.typoWords.length,
      };
      found.push(...(await this.#tierRead(shape).run(valuesOf(normal, page, viewerId, wanted))));
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
    const [row] = await this.#normalize.run({ query });
    return row ?? { text: '', words: null, typoWords: [] };
  }

  /**
   * One shape's statement, unexecuted, its values as placeholders (valuesOf fills them; its plan is
   * checked in the tests); a signed-in viewer never finds a user they block or who blocks them
   * (accounts' rule, the viewer the placeholder `viewerId`).
   */
  tierStatement(db: Db, { tier, direction, signedIn, typoWords }: TierShape) {
    const { matches, score } = tierClauses(tier, typoWords);
    const { where, orderBy } = keysetTemplate({ columns: [score, doc.sourceId] }, direction);
    const viewer = signedIn ? sql.placeholder('viewerId') : null;
    return db
      .select({ user: publicUserColumns, score })
      .from(doc)
      .innerJoin(users, eq(users.id, doc.sourceId))
      .where(and(eq(doc.kind, 'user'), matches, discoverableUser(), shownTo(viewer, users.id), where))
      .orderBy(...orderBy)
      .limit(sql.placeholder('limit'));
  }

  #tierRead(shape: TierShape): PreparedRead<Found> {
    // The typo words shape the fuzzy tier's statement only.
    const typoWords = shape.tier === 'fuzzy' ? shape.typoWords : 0;
    const key = `${shape.tier}.${shape.direction}.${shape.signedIn}.${typoWords}`;
    let read = this.#tierReads.get(key);
    if (read === undefined) {
      // A viewer's blocks are never read from the replica (docs/development.md, Reads from the replica).
      read = new PreparedRead(shape.signedIn ? this.source : this.replicaSource, '', (db) =>
        this.tierStatement(db, { ...shape, typoWords }),
      );
      this.#tierReads.set(key, read);
    }
    return read;
  }
}

/** The values of a tier's statement: the normalized query, the page's position, the rows to read, the viewer. */
export function valuesOf(
  normal: NormalQuery,
  page: PageRequest,
  viewerId: string | null,
  limit = page.limit + 1,
): Record<string, unknown> {
  const typos = Object.fromEntries(normal.typoWords.map((word, index) => [`typo${index}`, word]));
  return { text: normal.text, words: normal.words, ...typos, ...positionValues(page), limit, viewerId };
}
