/**
 * All SQL of hashtags: the three derived tables (uses per day, uses per tag, pairs) rebuilt from
 * media, and the three ranked lists read from them alone (no request reads media). Each list's
 * keyset sits next to its query; tags compare in the "C" collation so both engines order them alike.
 */
import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { nameOf } from '../../platform/db/column-names.ts';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { runStatement } from '../../platform/db/statements.ts';
import { type SyncCounts, syncTable } from '../../platform/db/table-sync.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { listedMedia } from './listed-media.ts';
import { type SuggestionRow, suggestionStatements, suggestionValues } from './suggestion-statements.ts';
import {
  hashtagCountedMedia as counted,
  hashtagDailyUses as daily,
  hashtagPairs as pairs,
  hashtagUses as totals,
} from './tables.ts';

export type { SuggestionRow } from './suggestion-statements.ts';

export interface TrendingRow {
  tag: string;
  uses: number;
  previousUses: number;
  score: number;
}

export interface RelatedRow {
  tag: string;
  count: number;
}

/** Prefix matches before similar ones, each by uses; ties by tag (descending, as every keyset). */
export const suggestionsKeyset = defineKeyset<SuggestionRow>({
  name: 'hashtagSuggestions',
  shape: ['int', 'int', 'string'],
  columns: [sql`prefix`, sql`uses`, sql`tag`],
  keyOf: (row) => [row.prefix, row.uses, row.tag],
});

export const trendingKeyset = defineKeyset<TrendingRow>({
  name: 'trendingHashtags',
  shape: ['number', 'int', 'string'],
  columns: [sql`score`, sql`uses`, sql`tag`],
  keyOf: (row) => [row.score, row.uses, row.tag],
});

export const relatedKeyset = defineKeyset<RelatedRow>({
  name: 'relatedHashtags',
  shape: ['int', 'string'],
  columns: [sql`count`, sql`tag`],
  keyOf: (row) => [row.count, row.tag],
});

/** The daily uses under the name trending's statement gives them. */
const dayRow = alias(daily, 'd');

export class HashtagsRepository extends Repository {
  /**
   * The rebuild's first statements, in its transaction. Its reads see one snapshot of media (READ
   * COMMITTED took one a statement: an edit committed between two of them was in some tables and not
   * others, and its resync, comparing with the ledger, then found nothing to do). The ledger is locked
   * against writes before that snapshot is taken: every resync locks its ledger rows first
   * (CountedPostsRepository.lockCounted), so one in progress ends before the rebuild reads, one that
   * begins waits for its commit and then resyncs from what it wrote, and none holds count rows the
   * rebuild writes (which it writes in no fixed order: a deadlock, else). The aggregates get room in
   * memory instead of spilling to disk.
   */
  async beginRebuild(): Promise<void> {
    await this.db.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
    await this.db.execute(sql`LOCK TABLE ${counted} IN EXCLUSIVE MODE`);
    await this.db.execute(sql`SET LOCAL work_mem = '64MB'`);
  }

  /** Uses per tag and UTC day, from media. */
  async rebuildDailyUses(): Promise<SyncCounts> {
    return syncTable(this.db, {
      table: daily,
      keys: [daily.tag, daily.day],
      values: [daily.uses],
      fresh: sql`SELECT tag AS ${nameOf(daily.tag)}, (listed."createdAt" AT TIME ZONE 'UTC')::date AS ${nameOf(daily.day)},
                   count(*)::int AS ${nameOf(daily.uses)}
            FROM (SELECT ${media.hashtags} AS hashtags, ${media.createdAt} AS "createdAt" FROM ${listedMedia}) listed
            CROSS JOIN LATERAL unnest(listed.hashtags) AS tag
            GROUP BY 1, 2`,
    });
  }

  /** All-time uses per tag, summed from the daily table (run after rebuildDailyUses). */
  async rebuildTotals(): Promise<SyncCounts> {
    return syncTable(this.db, {
      table: totals,
      keys: [totals.tag],
      values: [totals.uses],
      fresh: sql`SELECT ${daily.tag} AS ${nameOf(totals.tag)}, sum(${daily.uses})::int AS ${nameOf(totals.uses)}
            FROM ${daily} GROUP BY ${daily.tag}`,
      computed: { column: totals.folded, value: sql`lower(unaccent(${nameOf(totals.tag)}))` },
    });
  }

  /** Co-occurrences of every two tags on the same listed post, in both directions. */
  async rebuildPairs(): Promise<SyncCounts> {
    return syncTable(this.db, {
      table: pairs,
      keys: [pairs.tag, pairs.other],
      values: [pairs.count],
      fresh: sql`SELECT a.tag AS ${nameOf(pairs.tag)}, b.other AS ${nameOf(pairs.other)}, count(*)::int AS ${nameOf(pairs.count)}
            FROM (SELECT ${media.hashtags} AS hashtags FROM ${listedMedia}
                  AND cardinality(${media.hashtags}) > 1) listed
            CROSS JOIN LATERAL unnest(listed.hashtags) AS a(tag)
            CROSS JOIN LATERAL unnest(listed.hashtags) AS b(other)
            WHERE a.tag <> b.other
            GROUP BY 1, 2`,
    });
  }

  /** What the counts hold of each listed post with tags (run with the other rebuilds). */
  async rebuildCountedMedia(): Promise<SyncCounts> {
    return syncTable(this.db, {
      table: counted,
      keys: [counted.mediaId],
      values: [counted.tags, counted.day],
      fresh: sql`SELECT ${media.id} AS ${nameOf(counted.mediaId)}, ${media.hashtags} AS ${nameOf(counted.tags)},
                   (${media.createdAt} AT TIME ZONE 'UTC')::date AS ${nameOf(counted.day)}
            FROM ${listedMedia} AND cardinality(${media.hashtags}) > 0`,
    });
  }

  /**
   * Tags whose accent-free form starts with `query` (a btree range in "C" order: no LIKE, so no
   * metacharacter), then tags trigram-similar to it (pg_trgm's `%`, threshold 0.3).
   */
  async suggestions(query: string, page: PageRequest): Promise<SuggestionRow[]> {
    // A page that the tags starting with the query fill (forward, within the prefix group: what a
    // short query typed into a search box asks) needs no trigram comparison with every other tag.
    const withinPrefixes = page.direction === 'first' || (page.direction === 'after' && page.position?.[0] === 1);
    if (withinPrefixes) {
      const prefixed = await this.#suggestions(query, page, false);
      if (prefixed.length > page.limit) return prefixed;
    }
    return this.#suggestions(query, page, true);
  }

  #suggestions(query: string, page: PageRequest, similar: boolean): Promise<SuggestionRow[]> {
    const statements = suggestionStatements[page.direction];
    return runStatement(this.db, similar ? statements.similar : statements.prefixes, suggestionValues(query, page));
  }

  /**
   * Tags used more in the `windowDays` days ending `today` (UTC, included) than in the as many days
   * before, by score = (uses + smoothing) / (previous + smoothing).
   */
  async trending(today: string, windowDays: number, smoothing: number, page: PageRequest): Promise<TrendingRow[]> {
    const { where, orderBy } = keyset(trendingKeyset, page);
    const d = dayRow;
    return queryRows<TrendingRow>(
      this.replicaDb,
      sql`WITH windows AS MATERIALIZED (
            SELECT ${today}::date AS today, ${today}::date - ${windowDays}::int AS split,
                   ${today}::date - 2 * ${windowDays}::int AS start
          )
          SELECT tag, uses, "previousUses", score FROM (
            SELECT tag, uses, previous AS "previousUses",
                   (uses + ${smoothing}::int)::float8 / (previous + ${smoothing}::int) AS score
            FROM (
              SELECT ${d.tag} COLLATE "C" AS tag,
                     coalesce(sum(${d.uses}) FILTER (WHERE ${d.day} > w.split), 0)::int AS uses,
                     coalesce(sum(${d.uses}) FILTER (WHERE ${d.day} <= w.split), 0)::int AS previous
              FROM windows w JOIN ${daily} AS ${d} ON ${d.day} > w.start AND ${d.day} <= w.today
              GROUP BY ${d.tag}
            ) counted
            WHERE uses > previous
          ) s
          WHERE ${where ?? sql`true`}
          ORDER BY ${sql.join(orderBy, sql`, `)}
          LIMIT ${page.limit + 1}`,
    );
  }

  /** The tags that share listed posts with `tag`, by the number of posts they share. */
  async related(tag: string, page: PageRequest): Promise<RelatedRow[]> {
    const { where, orderBy } = keyset(relatedKeyset, page);
    return queryRows<RelatedRow>(
      this.db,
      sql`SELECT tag, count FROM (
            SELECT ${pairs.other} COLLATE "C" AS tag, ${pairs.count} AS count FROM ${pairs} WHERE ${pairs.tag} = ${tag}
          ) s
          WHERE ${where ?? sql`true`}
          ORDER BY ${sql.join(orderBy, sql`, `)}
          LIMIT ${page.limit + 1}`,
    );
  }
}
