/**
 * All SQL of reactions. Writers first lock the media row (MediaService.lockForCounters, in their transaction), so the
 * reactions of one media change one at a time; a reaction and the media's counters then change in
 * one statement, the counters moving by what the upsert or delete really did (never by what the
 * caller believed). Without the lock, READ COMMITTED re-checks of concurrent upserts and deletes
 * could pair a reaction change with stale counters (seen on PostgreSQL with 40 parallel requests).
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { keyset, type PageRequest } from '../../platform/http/pagination.ts';
import { type UserRow, users } from '../accounts/tables.ts';
import { type MediaRow, media } from '../media/tables.ts';
import { mediaReactions, type ReactionRow, type ReactionType } from './tables.ts';

/** What a PUT did: a new reaction, a like turned dislike (or back), or nothing (same type again). */
export type ReactionChange = 'created' | 'switched' | 'unchanged';

export interface ReactionWithCounts {
  reaction: ReactionRow;
  likesCount: number;
  dislikesCount: number;
}

export interface ReactedMedia {
  media: MediaRow;
  reactionId: string;
  reactedAt: Date;
}

export interface Reactor {
  user: UserRow;
  reactionId: string;
  reactedAt: Date;
}

export class ReactionsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Sets the user's reaction on a media. The DO UPDATE only fires when the type differs, so a row
   * comes back for an insert (it carries the new id) or a switch (it keeps its old id), and none for a
   * repeat; the counters follow. Call with the media locked (MediaService.lockForCounters).
   */
  async setReaction(
    input: { id: string; userId: string; mediaId: string; type: ReactionType; at: Date },
    db: Db = this.db,
  ): Promise<ReactionChange> {
    const { id, userId, mediaId, type, at } = input;
    const rows = await queryRows<{ inserted: boolean }>(
      db,
      sql`WITH upserted AS (
            INSERT INTO media_reactions (id, user_id, media_id, type, created_at)
            VALUES (${id}, ${userId}, ${mediaId}, ${type}, ${at.toISOString()})
            ON CONFLICT (user_id, media_id) DO UPDATE
              SET type = EXCLUDED.type, created_at = EXCLUDED.created_at
              WHERE media_reactions.type <> EXCLUDED.type
            RETURNING (id = ${id}) AS inserted
          ), counted AS (
            UPDATE media SET
              likes_count = likes_count + CASE WHEN ${type} = 'like' THEN 1 WHEN upserted.inserted THEN 0 ELSE -1 END,
              dislikes_count = dislikes_count + CASE WHEN ${type} = 'dislike' THEN 1 WHEN upserted.inserted THEN 0 ELSE -1 END
            FROM upserted
            WHERE media.id = ${mediaId}
            RETURNING media.id
          )
          SELECT inserted FROM upserted`,
    );
    const [row] = rows;
    if (row === undefined) return 'unchanged';
    return row.inserted ? 'created' : 'switched';
  }

  /** Removes the user's reaction and its count (media locked); the removed type, or null when there was none. */
  async removeReaction(userId: string, mediaId: string, db: Db = this.db): Promise<ReactionType | null> {
    const rows = await queryRows<{ type: ReactionType }>(
      db,
      sql`WITH removed AS (
            DELETE FROM media_reactions WHERE user_id = ${userId} AND media_id = ${mediaId}
            RETURNING type
          ), counted AS (
            UPDATE media SET
              likes_count = likes_count - CASE WHEN removed.type = 'like' THEN 1 ELSE 0 END,
              dislikes_count = dislikes_count - CASE WHEN removed.type = 'dislike' THEN 1 ELSE 0 END
            FROM removed
            WHERE media.id = ${mediaId}
            RETURNING media.id
          )
          SELECT type FROM removed`,
    );
    return rows[0]?.type ?? null;
  }

  /** Remembers the first like of a user on a media; false when it was already remembered. */
  async claimLikeReward(likerId: string, mediaId: string, at: Date, db: Db = this.db): Promise<boolean> {
    const rows = await queryRows<{ liker_id: string }>(
      db,
      sql`INSERT INTO like_rewards (liker_id, media_id, created_at) VALUES (${likerId}, ${mediaId}, ${at.toISOString()})
          ON CONFLICT DO NOTHING RETURNING liker_id`,
    );
    return rows.length > 0;
  }

  async findWithCounts(userId: string, mediaId: string, db: Db = this.db): Promise<ReactionWithCounts | null> {
    const [row] = await db
      .select({ reaction: mediaReactions, likesCount: media.likesCount, dislikesCount: media.dislikesCount })
      .from(mediaReactions)
      .innerJoin(media, eq(media.id, mediaReactions.mediaId))
      .where(and(eq(mediaReactions.userId, userId), eq(mediaReactions.mediaId, mediaId)));
    return row ?? null;
  }

  /** The media a user reacted to with `type`, newest reaction first, among those `visible` allows. */
  async listMediaOfUser(userId: string, type: ReactionType, visible: SQL, page: PageRequest): Promise<ReactedMedia[]> {
    const { where, orderBy } = keyset([mediaReactions.createdAt, mediaReactions.id], page);
    return this.db
      .select({ media, reactionId: mediaReactions.id, reactedAt: mediaReactions.createdAt })
      .from(mediaReactions)
      .innerJoin(media, eq(media.id, mediaReactions.mediaId))
      .where(and(eq(mediaReactions.userId, userId), eq(mediaReactions.type, type), visible, where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /**
   * The users who reacted to a media with `type`, newest first. Users who keep their reactions
   * private are left out (but for the viewer themself); the media's counters still count them.
   */
  async listUsersOfMedia(
    mediaId: string,
    type: ReactionType,
    viewerId: string | null,
    page: PageRequest,
  ): Promise<Reactor[]> {
    const { where, orderBy } = keyset([mediaReactions.createdAt, mediaReactions.id], page);
    const shown = sql`(${users.settings} ->> 'showReactionsPublicly') IS DISTINCT FROM 'false'`;
    return this.db
      .select({ user: users, reactionId: mediaReactions.id, reactedAt: mediaReactions.createdAt })
      .from(mediaReactions)
      .innerJoin(users, eq(users.id, mediaReactions.userId))
      .where(
        and(
          eq(mediaReactions.mediaId, mediaId),
          eq(mediaReactions.type, type),
          viewerId === null ? shown : sql`(${shown} OR ${users.id} = ${viewerId})`,
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }
}
