/**
 * All SQL of hashtags: the three derived tables (uses per day, uses per tag, pairs) rebuilt from
 * media, and the three ranked lists read from them alone (no request reads media). Each list's
 * keyset sits next to its query; tags compare in the "C" collation so both engines order them alike.
 */
import { type SQL, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { userRows as users, visibleUser } from '../accounts/read-model.ts';
import { mediaRows as media, mediaListedFor } from '../media/read-model.ts';

/** An autocomplete suggestion: `prefix` 1 when the tag starts with the query, 0 when only similar. */
export interface SuggestionRow {
  prefix: number;
  tag: string;
  uses: number;
}

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

/** A post as the counts hold it: its tags (none when it is not counted) and its UTC day. */
export interface CountedPost {
  tags: string[];
  day: string;
}

/** A text[] literal of the given tags, each a parameter. */
const textArray = (tags: string[]): SQL =>
  sql`ARRAY[${sql.join(
    tags.map((tag) => sql`${tag}`),
    sql`, `,
  )}]::text[]`;

/** What one rebuild changed, per table. */
export interface RebuildCounts {
  removed: number;
  written: number;
}

/** Publicly listed posts of owners in good standing, with their tags (the FROM and WHERE of a rebuild). */
const listedMedia = sql`${media}
  JOIN ${users} ON ${users.id} = ${media.ownerId}
  WHERE ${mediaListedFor(null)} AND ${visibleUser()}`;

/**
 * One statement that makes `table` hold exactly the rows of `fresh` (its keys and value columns):
 * fresh and stored rows are compared in one join, and only the rows that differ are deleted or
 * written, so an unchanged table costs reads only. `computed` adds a column derived on insert.
 */
function syncStatement(table: string, keys: [string, ...string[]], values: string[], fresh: SQL, computed = ''): SQL {
  const on = keys.map((key) => `s.${key} = f.${key}`).join(' AND ');
  const columns = [...keys, ...values].join(', ');
  const row = (alias: string) => `(${values.map((value) => `${alias}.${value}`).join(', ')})`;
  const raw = sql.raw;
  return sql`WITH fresh AS (${fresh}),
    diff AS MATERIALIZED (
      SELECT ${raw(keys.map((key) => `coalesce(f.${key}, s.${key}) AS ${key}`).join(', '))},
             ${raw(values.map((value) => `f.${value}`).join(', '))}, f.${raw(keys[0])} IS NOT NULL AS present
      FROM fresh f FULL JOIN ${raw(table)} s ON ${raw(on)}
      WHERE ${raw(row('f'))} IS DISTINCT FROM ${raw(row('s'))}
    ), removed AS (
      DELETE FROM ${raw(table)} s USING diff f WHERE NOT f.present AND ${raw(on)} RETURNING 1
    ), written AS (
      INSERT INTO ${raw(table)} (${raw(columns)}${raw(computed ? `, ${computed}` : '')})
      SELECT ${raw(columns)}${raw(computed ? `, ${computedValue[computed]}` : '')} FROM diff WHERE present
      ON CONFLICT (${raw(keys.join(', '))})
      DO UPDATE SET ${raw(values.map((value) => `${value} = excluded.${value}`).join(', '))} RETURNING 1
    )
    SELECT (SELECT count(*) FROM removed)::int AS removed, (SELECT count(*) FROM written)::int AS written`;
}

/** Columns derived from the tag when a row is inserted. */
const computedValue: Record<string, string> = { folded: 'lower(unaccent(tag))' };

export class HashtagsRepository extends Repository {
  /** Gives the rebuild's aggregates room in memory (this transaction only), instead of spilling to disk. */
  async allowLargeSorts(): Promise<void> {
    await this.db.execute(sql`SET LOCAL work_mem = '64MB'`);
  }

  /** Uses per tag and UTC day, from media. */
  async rebuildDailyUses(): Promise<RebuildCounts> {
    return this.#sync(
      syncStatement(
        'hashtag_daily_uses',
        ['tag', 'day'],
        ['uses'],
        sql`SELECT tag, (listed.created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS uses
            FROM (SELECT ${media.hashtags} AS hashtags, ${media.createdAt} AS created_at FROM ${listedMedia}) listed
            CROSS JOIN LATERAL unnest(listed.hashtags) AS tag
            GROUP BY 1, 2`,
      ),
    );
  }

  /** All-time uses per tag, summed from the daily table (run after rebuildDailyUses). */
  async rebuildTotals(): Promise<RebuildCounts> {
    return this.#sync(
      syncStatement(
        'hashtag_uses',
        ['tag'],
        ['uses'],
        sql`SELECT tag, sum(uses)::int AS uses FROM hashtag_daily_uses GROUP BY tag`,
        'folded',
      ),
    );
  }

  /** Co-occurrences of every two tags on the same listed post, in both directions. */
  async rebuildPairs(): Promise<RebuildCounts> {
    return this.#sync(
      syncStatement(
        'hashtag_pairs',
        ['tag', 'other'],
        ['count'],
        sql`SELECT a.tag, b.other, count(*)::int AS count
            FROM (SELECT ${media.hashtags} AS hashtags FROM ${listedMedia}
                  AND cardinality(${media.hashtags}) > 1) listed
            CROSS JOIN LATERAL unnest(listed.hashtags) AS a(tag)
            CROSS JOIN LATERAL unnest(listed.hashtags) AS b(other)
            WHERE a.tag <> b.other
            GROUP BY 1, 2`,
      ),
    );
  }

  /** What the counts hold of each listed post with tags (run with the other rebuilds). */
  async rebuildCountedMedia(): Promise<RebuildCounts> {
    return this.#sync(
      syncStatement(
        'hashtag_counted_media',
        ['media_id'],
        ['tags', 'day'],
        sql`SELECT ${media.id} AS media_id, ${media.hashtags} AS tags, (${media.createdAt} AT TIME ZONE 'UTC')::date AS day
            FROM ${listedMedia} AND cardinality(${media.hashtags}) > 0`,
      ),
    );
  }

  /**
   * What the counts hold of one post, its ledger row locked until the transaction ends (a row is
   * made if there is none, so two events of one post wait for each other). Empty tags: nothing.
   */
  async lockCounted(mediaId: string): Promise<CountedPost> {
    await this.db.execute(
      sql`INSERT INTO hashtag_counted_media (media_id, tags, day) VALUES (${mediaId}, '{}', '1970-01-01')
          ON CONFLICT (media_id) DO NOTHING`,
    );
    const [row] = await queryRows<CountedPost>(
      this.db,
      sql`SELECT tags, to_char(day, 'YYYY-MM-DD') AS day FROM hashtag_counted_media WHERE media_id = ${mediaId} FOR UPDATE`,
    );
    return returned(row, 'hashtag_counted_media.lock');
  }

  /** The post as the counts should hold it now: its tags and day if it is listed, else no tags. */
  async listedPost(mediaId: string): Promise<CountedPost> {
    const [row] = await queryRows<CountedPost>(
      this.db,
      sql`SELECT ${media.hashtags} AS tags, to_char((${media.createdAt} AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day
          FROM ${listedMedia} AND ${media.id} = ${mediaId}`,
    );
    return row ?? { tags: [], day: '1970-01-01' };
  }

  async setCounted(mediaId: string, post: CountedPost): Promise<void> {
    await this.db.execute(
      post.tags.length === 0
        ? sql`DELETE FROM hashtag_counted_media WHERE media_id = ${mediaId}`
        : sql`UPDATE hashtag_counted_media SET tags = ${textArray(post.tags)}, day = ${post.day}::date
              WHERE media_id = ${mediaId}`,
    );
  }

  /** Adds one post's uses and pairs to the counts (sign 1), or takes them out (sign -1). */
  async count({ tags, day }: CountedPost, sign: 1 | -1): Promise<void> {
    if (tags.length === 0) return;
    const list = textArray(tags);
    const pairs = sql`SELECT a.tag, b.other FROM unnest(${list}) AS a(tag), unnest(${list}) AS b(other) WHERE a.tag <> b.other`;
    if (sign === 1) {
      await this.db.execute(
        sql`INSERT INTO hashtag_daily_uses AS d (tag, day, uses) SELECT tag, ${day}::date, 1 FROM unnest(${list}) AS tag
            ON CONFLICT (tag, day) DO UPDATE SET uses = d.uses + 1`,
      );
      await this.db.execute(
        sql`INSERT INTO hashtag_uses AS t (tag, folded, uses) SELECT tag, lower(unaccent(tag)), 1 FROM unnest(${list}) AS tag
            ON CONFLICT (tag) DO UPDATE SET uses = t.uses + 1`,
      );
      await this.db.execute(
        sql`INSERT INTO hashtag_pairs AS p (tag, other, count) SELECT tag, other, 1 FROM (${pairs}) pairs
            ON CONFLICT (tag, other) DO UPDATE SET count = p.count + 1`,
      );
      return;
    }
    // Each row loses one, then rows at 0 go: the decrement re-reads a row another transaction changed
    // (a DELETE ... WHERE uses <= 1 decided on its snapshot would leave two racing decrements at 1).
    await this.db.execute(
      sql`UPDATE hashtag_daily_uses SET uses = uses - 1 WHERE day = ${day}::date AND tag = ANY(${list})`,
    );
    await this.db.execute(
      sql`DELETE FROM hashtag_daily_uses WHERE day = ${day}::date AND tag = ANY(${list}) AND uses <= 0`,
    );
    await this.db.execute(sql`UPDATE hashtag_uses SET uses = uses - 1 WHERE tag = ANY(${list})`);
    await this.db.execute(sql`DELETE FROM hashtag_uses WHERE tag = ANY(${list}) AND uses <= 0`);
    await this.db.execute(
      sql`UPDATE hashtag_pairs p SET count = p.count - 1 FROM (${pairs}) x WHERE p.tag = x.tag AND p.other = x.other`,
    );
    await this.db.execute(
      sql`DELETE FROM hashtag_pairs p USING (${pairs}) x WHERE p.tag = x.tag AND p.other = x.other AND p.count <= 0`,
    );
  }

  async #sync(statement: SQL): Promise<RebuildCounts> {
    const [counts] = await queryRows<RebuildCounts>(this.db, statement);
    return returned(counts, 'hashtags.sync');
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
    const { where, orderBy } = keyset(suggestionsKeyset, page);
    const low = sql`lower(unaccent(${query}::text))`;
    const high = sql`(${low} || chr(1114111))`;
    const similarTags = similar
      ? sql`UNION ALL
            SELECT 0, tag COLLATE "C", uses FROM hashtag_uses
            WHERE folded % ${low} AND NOT (folded >= ${low} AND folded < ${high})`
      : sql``;
    return queryRows<SuggestionRow>(
      this.db,
      // The folded query is a stable expression of a parameter: the planner uses it as an index bound.
      sql`SELECT prefix, tag, uses FROM (
            SELECT 1 AS prefix, tag COLLATE "C" AS tag, uses FROM hashtag_uses
            WHERE folded >= ${low} AND folded < ${high}
            ${similarTags}
          ) s
          WHERE ${where ?? sql`true`}
          ORDER BY ${sql.join(orderBy, sql`, `)}
          LIMIT ${page.limit + 1}`,
    );
  }

  /**
   * Tags used more in the `windowDays` days ending `today` (UTC, included) than in the as many days
   * before, by score = (uses + smoothing) / (previous + smoothing).
   */
  async trending(today: string, windowDays: number, smoothing: number, page: PageRequest): Promise<TrendingRow[]> {
    const { where, orderBy } = keyset(trendingKeyset, page);
    return queryRows<TrendingRow>(
      this.db,
      sql`WITH windows AS MATERIALIZED (
            SELECT ${today}::date AS today, ${today}::date - ${windowDays}::int AS split,
                   ${today}::date - 2 * ${windowDays}::int AS start
          )
          SELECT tag, uses, "previousUses", score FROM (
            SELECT tag, uses, previous AS "previousUses",
                   (uses + ${smoothing}::int)::float8 / (previous + ${smoothing}::int) AS score
            FROM (
              SELECT d.tag COLLATE "C" AS tag,
                     coalesce(sum(d.uses) FILTER (WHERE d.day > w.split), 0)::int AS uses,
                     coalesce(sum(d.uses) FILTER (WHERE d.day <= w.split), 0)::int AS previous
              FROM windows w JOIN hashtag_daily_uses d ON d.day > w.start AND d.day <= w.today
              GROUP BY d.tag
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
            SELECT other COLLATE "C" AS tag, count FROM hashtag_pairs WHERE tag = ${tag}
          ) s
          WHERE ${where ?? sql`true`}
          ORDER BY ${sql.join(orderBy, sql`, `)}
          LIMIT ${page.limit + 1}`,
    );
  }
}
