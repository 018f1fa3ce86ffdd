/**
 * Recounts a media's reaction and bookmark counters from the rows they count. Comments come with a
 * later issue: commentsCount is left as it is until their table exists and is recounted here.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { queryRows } from '../../platform/db/rows.ts';

export async function recomputeMediaCounters(db: Db, mediaId: string) {
  const [row] = await queryRows<{ likes: number; dislikes: number; bookmarks: number }>(
    db,
    sql`SELECT
      (SELECT count(*)::int FROM media_reactions WHERE media_id = ${mediaId} AND type = 'like') AS likes,
      (SELECT count(*)::int FROM media_reactions WHERE media_id = ${mediaId} AND type = 'dislike') AS dislikes,
      (SELECT count(*)::int FROM bookmarks WHERE media_id = ${mediaId}) AS bookmarks`,
  );
  return { likesCount: row?.likes ?? 0, dislikesCount: row?.dislikes ?? 0, bookmarksCount: row?.bookmarks ?? 0 };
}
