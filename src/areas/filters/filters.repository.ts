/** All SQL of keyword filters: filters and their keywords. */
import { and, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm';
import { namesOf } from '../../platform/db/column-names.ts';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { queryRows } from '../../platform/db/rows.ts';
import type { KeywordInput } from './filter-rules.ts';
import { type FilterRow, filterKeywords, filters } from './tables.ts';

/** A keyword as stored, with `folded`: the form texts are matched against (lower(unaccent(keyword))). */
export interface StoredKeyword extends KeywordInput {
  folded: string;
}
export type FilterWithKeywords = FilterRow & { keywords: StoredKeyword[] };

/** My filters, newest first. */
export const filtersKeyset = newestFirst<FilterWithKeywords>('filters', filters);

// A statement of its own inside the select: the filter's keywords in their order, as one JSON array.
const keywordsOfFilter = sql<StoredKeyword[]>`(
  SELECT coalesce(json_agg(json_build_object(
    'keyword', ${filterKeywords.keyword}, 'wholeWord', ${filterKeywords.wholeWord}, 'folded', ${filterKeywords.folded}
  ) ORDER BY ${filterKeywords.position}), '[]'::json)
  FROM ${filterKeywords} WHERE ${filterKeywords.filterId} = ${filters.id})`;

const withKeywords = { ...getTableColumns(filters), keywords: keywordsOfFilter };

export class FiltersRepository extends Repository {
  async countOfUser(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(filters)
      .where(eq(filters.userId, userId));
    return row?.count ?? 0;
  }

  async insert(row: FilterRow): Promise<FilterRow> {
    const [inserted] = await this.db.insert(filters).values(row).returning();
    return returned(inserted, 'filters.insert');
  }

  /** Sets a filter's keywords (replacing any), folded by the database as the texts they are matched with. */
  async replaceKeywords(filterId: string, keywords: KeywordInput[]): Promise<void> {
    await this.db.delete(filterKeywords).where(eq(filterKeywords.filterId, filterId));
    if (keywords.length === 0) return;
    const words = keywords.map((entry) => entry.keyword);
    const wholeWords = keywords.map((entry) => entry.wholeWord);
    const k = filterKeywords;
    await this.db.execute(
      sql`INSERT INTO ${filterKeywords} (${namesOf(k.filterId, k.position, k.keyword, k.wholeWord, k.folded)})
          SELECT ${filterId}::uuid, (ordinality - 1)::int, keyword, whole_word, lower(unaccent(keyword))
          FROM unnest(${sql.param(words)}::text[], ${sql.param(wholeWords)}::boolean[])
            WITH ORDINALITY AS given(keyword, whole_word, ordinality)`,
    );
  }

  async update(userId: string, id: string, patch: Partial<FilterRow>): Promise<boolean> {
    const updated = await this.db
      .update(filters)
      .set(patch)
      .where(and(eq(filters.userId, userId), eq(filters.id, id)))
      .returning({ id: filters.id });
    return updated.length > 0;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(filters)
      .where(and(eq(filters.userId, userId), eq(filters.id, id)))
      .returning({ id: filters.id });
    return deleted.length > 0;
  }

  async find(userId: string, id: string): Promise<FilterWithKeywords | null> {
    const [row] = await this.db
      .select(withKeywords)
      .from(filters)
      .where(and(eq(filters.userId, userId), eq(filters.id, id)));
    return row ?? null;
  }

  async list(userId: string, page: PageRequest): Promise<FilterWithKeywords[]> {
    const { where, orderBy } = keyset(filtersKeyset, page);
    return this.db
      .select(withKeywords)
      .from(filters)
      .where(and(eq(filters.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  readonly #allOfUser = new PreparedRead<FilterWithKeywords>(this.source, 'filters.allOfUser', (db) =>
    db
      .select(withKeywords)
      .from(filters)
      .where(eq(filters.userId, sql.placeholder('userId'))),
  );

  /** Every filter of the user (at most filtersPerUser): what the lists they read are filtered with. */
  allOfUser(userId: string): Promise<FilterWithKeywords[]> {
    return this.#allOfUser.run({ userId });
  }

  /** The data export's filters of a user, in keyset batches by id (keywords without their folded form). */
  async exportRows(userId: string, after: string | null, limit: number) {
    const rows = await this.db
      .select(withKeywords)
      .from(filters)
      .where(and(eq(filters.userId, userId), after === null ? undefined : gt(filters.id, after)))
      .orderBy(filters.id)
      .limit(limit);
    return rows.map(({ keywords, ...row }) => ({
      ...row,
      keywords: keywords.map(({ keyword, wholeWord }) => ({ keyword, wholeWord })),
    }));
  }

  /**
   * Which of `texts` each pattern matches, as (text, pattern) positions from 0: the texts folded as the
   * keywords were, so a warning agrees with what hiding would have left out. Each pattern is compiled once.
   */
  async matches(texts: string[], patterns: string[]): Promise<{ text: number; pattern: number }[]> {
    if (texts.length === 0 || patterns.length === 0) return [];
    return queryRows<{ text: number; pattern: number }>(
      this.db,
      sql`WITH folded AS MATERIALIZED (
            SELECT lower(unaccent(body)) AS body, position FROM unnest(${sql.param(texts)}::text[]) WITH ORDINALITY AS t(body, position)
          )
          SELECT (f.position - 1)::int AS "text", (p.position - 1)::int AS "pattern"
          FROM unnest(${sql.param(patterns)}::text[]) WITH ORDINALITY AS p(pattern, position)
          CROSS JOIN LATERAL (SELECT folded.position FROM folded WHERE folded.body ~ p.pattern) AS f`,
    );
  }

  /** An erased account's filters (their keywords go with them). */
  async eraseUser(userId: string): Promise<void> {
    const ids = this.db.select({ id: filters.id }).from(filters).where(eq(filters.userId, userId));
    await this.db.delete(filterKeywords).where(inArray(filterKeywords.filterId, ids));
    await this.db.delete(filters).where(eq(filters.userId, userId));
  }
}
