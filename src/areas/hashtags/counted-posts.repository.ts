/**
 * The counts' writes after media events and an owner's ban or its end: what the ledger
 * (hashtag_counted_media) holds of each post, locked; the post as it is now; and the difference
 * applied to the three tables of counts, summed per row of the counts, so any number of posts costs a
 * handful of statements (the owner of thousands of tagged posts included). The rebuild is in
 * hashtags.repository.ts.
 */
import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { uuidArray } from '../../platform/db/array-literal.ts';
import { nameOf, namesOf } from '../../platform/db/column-names.ts';
import { boundLockWaits } from '../../platform/db/lock-waits.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { listedMedia } from './listed-media.ts';
import {
  hashtagCountedMedia as counted,
  hashtagDailyUses as daily,
  hashtagPairs as pairs,
  hashtagUses as totals,
} from './tables.ts';

/** A post as the counts hold it: its tags (none when it is not counted) and its UTC day. */
export interface CountedPost {
  tags: string[];
  day: string;
}

/** A post not counted: no tags. */
export const uncounted: CountedPost = { tags: [], day: '1970-01-01' };

/** Posts as JSON (`[{tags, day}]`), read back as rows by the statements below. */
const postsJson = (posts: readonly CountedPost[]) => sql`${JSON.stringify(posts)}::jsonb`;
const postRows = (posts: readonly CountedPost[]) =>
  sql`(SELECT value -> 'tags' AS tags, (value ->> 'day')::date AS day FROM jsonb_array_elements(${postsJson(posts)})) AS post`;

/** Each (tag, day) of the posts and how many of them carry it. */
const dayUses = (posts: readonly CountedPost[]) =>
  sql`(SELECT tag, post.day, count(*)::int AS n FROM ${postRows(posts)}, jsonb_array_elements_text(post.tags) AS tag
       GROUP BY tag, post.day)`;
/** Each tag of the posts and how many of them carry it. */
const tagUses = (posts: readonly CountedPost[]) =>
  sql`(SELECT tag, count(*)::int AS n FROM ${postRows(posts)}, jsonb_array_elements_text(post.tags) AS tag GROUP BY tag)`;
/** Each ordered pair of two tags of one post, and how many posts carry both. */
const pairUses = (posts: readonly CountedPost[]) =>
  sql`(SELECT a.tag, b.other, count(*)::int AS n
       FROM ${postRows(posts)}, jsonb_array_elements_text(post.tags) AS a(tag), jsonb_array_elements_text(post.tags) AS b(other)
       WHERE a.tag <> b.other GROUP BY a.tag, b.other)`;

const [d, t, p] = [alias(daily, 'd'), alias(totals, 't'), alias(pairs, 'p')];

export class CountedPostsRepository extends Repository {
  /**
   * An owner's media the counts may hold or should hold: with tags, or counted (their tags removed
   * since). A ban or its end changes whether each is listed.
   */
  async taggedMediaIdsOf(ownerId: string): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`SELECT ${media.id} AS id FROM ${media}
          WHERE ${media.ownerId} = ${ownerId}
            AND (cardinality(${media.hashtags}) > 0 OR EXISTS (SELECT 1 FROM ${counted} WHERE ${counted.mediaId} = ${media.id}))
          ORDER BY ${media.id}`,
    );
    return rows.map((row) => row.id);
  }

  /**
   * Bounds how long this transaction waits for a lock (a resync's first statement): the daily rebuild
   * locks the ledger for its whole run (12 to 19 s at a million media). Past the bound the resync fails,
   * and the job after-commit-retries runs it again (platform/db/lock-waits.ts).
   */
  boundLockWaits(): Promise<void> {
    return boundLockWaits(this.db);
  }

  /**
   * What the counts hold of each post, their ledger rows locked until the transaction ends, in id
   * order (a row is made for a post that has none, so two events of one post wait for each other).
   */
  async lockCounted(mediaIds: readonly string[]): Promise<Map<string, CountedPost>> {
    await this.db.execute(
      sql`INSERT INTO ${counted} (${namesOf(counted.mediaId, counted.tags, counted.day)})
          SELECT id, '{}', '1970-01-01' FROM unnest(${uuidArray(mediaIds)}) AS id ORDER BY id
          ON CONFLICT (${nameOf(counted.mediaId)}) DO NOTHING`,
    );
    const rows = await queryRows<CountedPost & { id: string }>(
      this.db,
      sql`SELECT ${counted.mediaId} AS id, ${counted.tags} AS tags, to_char(${counted.day}, 'YYYY-MM-DD') AS day
          FROM ${counted} WHERE ${counted.mediaId} = ANY(${uuidArray(mediaIds)})
          ORDER BY ${counted.mediaId} FOR UPDATE`,
    );
    return new Map(rows.map(({ id, tags, day }) => [id, { tags, day }]));
  }

  /** The posts as the counts should hold them now: tags and day of those listed (the others: none). */
  async listedPosts(mediaIds: readonly string[]): Promise<Map<string, CountedPost>> {
    const rows = await queryRows<CountedPost & { id: string }>(
      this.db,
      sql`SELECT ${media.id} AS id, ${media.hashtags} AS tags,
                 to_char((${media.createdAt} AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day
          FROM ${listedMedia} AND ${media.id} = ANY(${uuidArray(mediaIds)})`,
    );
    return new Map(rows.map(({ id, tags, day }) => [id, { tags, day }]));
  }

  /** Records what the counts now hold of each post (a post with no tags leaves the ledger). */
  async setCounted(posts: ReadonlyArray<{ id: string; post: CountedPost }>): Promise<void> {
    const gone = posts.filter(({ post }) => post.tags.length === 0).map(({ id }) => id);
    const kept = posts.filter(({ post }) => post.tags.length > 0);
    if (gone.length > 0) {
      await this.db.execute(sql`DELETE FROM ${counted} WHERE ${counted.mediaId} = ANY(${uuidArray(gone)})`);
    }
    if (kept.length > 0) {
      const rows = JSON.stringify(kept.map(({ id, post }) => ({ id, ...post })));
      await this.db.execute(
        sql`UPDATE ${counted} SET ${nameOf(counted.tags)} = x.tags, ${nameOf(counted.day)} = x.day
            FROM (SELECT (value ->> 'id')::uuid AS id, (value ->> 'day')::date AS day,
                         ARRAY(SELECT jsonb_array_elements_text(value -> 'tags')) AS tags
                  FROM jsonb_array_elements(${rows}::jsonb)) AS x
            WHERE ${counted.mediaId} = x.id`,
      );
    }
  }

  /**
   * Locks every row of the counts these posts touch, table by table in the order `count` writes them,
   * each table's rows in their key's order, the missing ones made at 0 (a no-op update of those that
   * exist): the writes that follow then wait for nothing, and every resync takes its locks in one
   * order. Locked by the writes themselves, a decrement's rows in its join's order and an edit's added
   * tags after its removed ones, two posts whose tags swapped deadlocked (counts-lock-order.race.test.ts);
   * locked only where rows existed, a row another resync made meanwhile was still taken out of order.
   * A row left at 0 is removed by the decrement (only a post's old tags can be at 0 afterwards).
   */
  async lockCounts(posts: readonly CountedPost[]): Promise<void> {
    await this.#add(posts, '0');
  }

  /** Adds the posts' uses and pairs to the counts (sign 1), or takes them out (sign -1). */
  async count(posts: readonly CountedPost[], sign: 1 | -1): Promise<void> {
    if (sign === 1) return this.#add(posts, 'n');
    const counting = posts.filter((post) => post.tags.length > 0);
    if (counting.length === 0) return;
    // Each row loses its share, then rows at 0 go: the decrement re-reads a row another transaction
    // changed (a DELETE ... WHERE uses <= n decided on its snapshot would leave two racing decrements).
    // A count that drifted below the post's share (rows written behind the service's back, which
    // lockCounts made at 0 when missing) stops at 0 for the rebuild to repair, not at a refusal.
    const onDays = sql`${d.tag} = x.tag AND ${d.day} = x.day`;
    await this.db.execute(
      sql`UPDATE ${daily} AS ${d} SET ${nameOf(daily.uses)} = greatest(${d.uses} - x.n, 0) FROM ${dayUses(counting)} AS x WHERE ${onDays}`,
    );
    await this.db.execute(
      sql`DELETE FROM ${daily} AS ${d} USING ${dayUses(counting)} AS x WHERE ${onDays} AND ${d.uses} <= 0`,
    );
    const onTags = sql`${t.tag} = x.tag`;
    await this.db.execute(
      sql`UPDATE ${totals} AS ${t} SET ${nameOf(totals.uses)} = greatest(${t.uses} - x.n, 0) FROM ${tagUses(counting)} AS x WHERE ${onTags}`,
    );
    await this.db.execute(
      sql`DELETE FROM ${totals} AS ${t} USING ${tagUses(counting)} AS x WHERE ${onTags} AND ${t.uses} <= 0`,
    );
    const onPairs = sql`${p.tag} = x.tag AND ${p.other} = x.other`;
    await this.db.execute(
      sql`UPDATE ${pairs} AS ${p} SET ${nameOf(pairs.count)} = greatest(${p.count} - x.n, 0) FROM ${pairUses(counting)} AS x WHERE ${onPairs}`,
    );
    await this.db.execute(
      sql`DELETE FROM ${pairs} AS ${p} USING ${pairUses(counting)} AS x WHERE ${onPairs} AND ${p.count} <= 0`,
    );
  }

  /**
   * Adds to each row of the counts the posts touch their share (`n`), or nothing (`0`: the rows locked,
   * the missing ones made), the rows written table by table and each table's in its key's order.
   */
  async #add(posts: readonly CountedPost[], share: 'n' | '0'): Promise<void> {
    const counting = posts.filter((post) => post.tags.length > 0);
    if (counting.length === 0) return;
    const n = sql.raw(share);
    await this.db.execute(
      sql`INSERT INTO ${daily} AS ${d} (${namesOf(daily.tag, daily.day, daily.uses)})
          SELECT tag, day, ${n} FROM ${dayUses(counting)} AS x ORDER BY tag, day
          ON CONFLICT (${namesOf(daily.tag, daily.day)}) DO UPDATE SET ${nameOf(daily.uses)} = ${d.uses} + excluded.${nameOf(daily.uses)}`,
    );
    await this.db.execute(
      sql`INSERT INTO ${totals} AS ${t} (${namesOf(totals.tag, totals.folded, totals.uses)})
          SELECT tag, lower(unaccent(tag)), ${n} FROM ${tagUses(counting)} AS x ORDER BY tag
          ON CONFLICT (${nameOf(totals.tag)}) DO UPDATE SET ${nameOf(totals.uses)} = ${t.uses} + excluded.${nameOf(totals.uses)}`,
    );
    await this.db.execute(
      sql`INSERT INTO ${pairs} AS ${p} (${namesOf(pairs.tag, pairs.other, pairs.count)})
          SELECT tag, other, ${n} FROM ${pairUses(counting)} AS x ORDER BY tag, other
          ON CONFLICT (${namesOf(pairs.tag, pairs.other)}) DO UPDATE SET ${nameOf(pairs.count)} = ${p.count} + excluded.${nameOf(pairs.count)}`,
    );
  }
}
