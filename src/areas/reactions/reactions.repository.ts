/**
 * All SQL of reactions. Writers first lock the media row (MediaService.lockForCounters, in their
 * transaction), so the reactions of one media change one at a time; the service then moves the
 * media's counters (MediaService.adjustCounters) by what the upsert or delete really did, never by
 * what the caller believed. Without the lock, READ COMMITTED re-checks of concurrent upserts and
 * deletes could pair a reaction change with stale counters (seen on PostgreSQL with 40 parallel
 * requests). Lists read media and users through their owners' read models.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import { nameOf, namesOf } from '../../platform/db/column-names.ts';
import { defineKeyset, type Keyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import { literal } from '../../platform/db/literals.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { byKey, PreparedPage } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import {
  type PublicUserRow,
  publicUserColumns,
  reactionsShownTo,
  shownTo,
  userRows as users,
  visibleUser,
} from '../accounts/read-model.ts';
import { mediaFilterText, notHiddenByFilters } from '../filters/read-model.ts';
import {
  type ListedMedia,
  listedMediaColumns,
  type MediaVisibility,
  mediaRows as media,
  mediaVisibility,
} from '../media/read-model.ts';
import { likeRewards, mediaReactions, type ReactionRow, type ReactionType } from './tables.ts';

/** What a PUT did: a new reaction, a like turned dislike (or back), or nothing (same type again). */
export type ReactionChange = 'created' | 'switched' | 'unchanged';

export interface ReactionWithCounts {
  reaction: ReactionRow;
  likesCount: number;
  dislikesCount: number;
}

export interface ReactedMedia {
  media: ListedMedia;
  reactionId: string;
  reactedAt: Date;
}

export interface Reactor {
  user: PublicUserRow;
  reactionId: string;
  reactedAt: Date;
}

/** A list of reactions of one type, newest reaction first. */
const reactionsOfType = <Row extends { reactedAt: Date; reactionId: string }>(name: string): Keyset<Row> =>
  defineKeyset<Row>({
    name,
    shape: ['timestamp', 'uuid'],
    columns: [mediaReactions.createdAt, mediaReactions.id],
    keyOf: (row) => [row.reactedAt, row.reactionId],
  });

/** The media a user liked or disliked. */
export const reactedMediaKeysets: Record<ReactionType, Keyset<ReactedMedia>> = {
  like: reactionsOfType('liked-media'),
  dislike: reactionsOfType('disliked-media'),
};

/** The users who liked or disliked a media. */
export const reactorsKeysets: Record<ReactionType, Keyset<Reactor>> = {
  like: reactionsOfType('likers'),
  dislike: reactionsOfType('dislikers'),
};

export class ReactionsRepository extends Repository {
  /**
   * Sets the user's reaction on a media. The DO UPDATE only fires when the type differs, so a row
   * comes back for an insert (it carries the new id) or a switch (it keeps its old id), and none for a
   * repeat. Call with the media locked (MediaService.lockForCounters).
   */
  async setReaction(input: {
    id: string;
    userId: string;
    mediaId: string;
    type: ReactionType;
    at: Date;
  }): Promise<ReactionChange> {
    const { id, userId, mediaId, type, at } = input;
    const r = mediaReactions;
    const rows = await queryRows<{ inserted: boolean }>(
      this.db,
      sql`INSERT INTO ${mediaReactions} (${namesOf(r.id, r.userId, r.mediaId, r.type, r.createdAt)})
          VALUES (${id}, ${userId}, ${mediaId}, ${type}, ${at.toISOString()})
          ON CONFLICT (${namesOf(r.userId, r.mediaId)}) DO UPDATE
            SET ${nameOf(r.type)} = EXCLUDED.${nameOf(r.type)}, ${nameOf(r.createdAt)} = EXCLUDED.${nameOf(r.createdAt)}
            WHERE ${r.type} <> EXCLUDED.${nameOf(r.type)}
          RETURNING (${r.id} = ${id}) AS inserted`,
    );
    const [row] = rows;
    if (row === undefined) return 'unchanged';
    return row.inserted ? 'created' : 'switched';
  }

  /** Removes the user's reaction (media locked); the removed type, or null when there was none. */
  async removeReaction(userId: string, mediaId: string): Promise<ReactionType | null> {
    const [row] = await this.db
      .delete(mediaReactions)
      .where(and(eq(mediaReactions.userId, userId), eq(mediaReactions.mediaId, mediaId)))
      .returning({ type: mediaReactions.type });
    return row?.type ?? null;
  }

  /**
   * An erased account (`user.erasing`): its reactions and like-reward marks. Returns what left each
   * media (in id order), for the caller to move its counters with the media locked.
   */
  async eraseUser(userId: string): Promise<{ mediaId: string; likes: number; dislikes: number }[]> {
    await this.db.delete(likeRewards).where(eq(likeRewards.likerId, userId));
    const r = mediaReactions;
    return queryRows(
      this.db,
      sql`WITH gone AS (DELETE FROM ${r} WHERE ${r.userId} = ${userId} RETURNING ${r.mediaId} AS "mediaId", ${r.type} AS type)
          SELECT "mediaId", count(*) FILTER (WHERE type = 'like')::int AS likes,
                 count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
          FROM gone GROUP BY "mediaId" ORDER BY "mediaId"`,
    );
  }

  /** Likes and dislikes of a media counted from the rows (the admin recount). */
  async countsOf(mediaId: string): Promise<{ likes: number; dislikes: number }> {
    const [row] = await this.db
      .select({
        likes: sql<number>`count(*) FILTER (WHERE ${mediaReactions.type} = 'like')::int`,
        dislikes: sql<number>`count(*) FILTER (WHERE ${mediaReactions.type} = 'dislike')::int`,
      })
      .from(mediaReactions)
      .where(eq(mediaReactions.mediaId, mediaId));
    return { likes: row?.likes ?? 0, dislikes: row?.dislikes ?? 0 };
  }

  async find(userId: string, mediaId: string): Promise<ReactionRow | null> {
    const [row] = await this.db
      .select()
      .from(mediaReactions)
      .where(and(eq(mediaReactions.userId, userId), eq(mediaReactions.mediaId, mediaId)));
    return row ?? null;
  }

  /** Remembers the first like of a user on a media; false when it was already remembered. */
  async claimLikeReward(likerId: string, mediaId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .insert(likeRewards)
      .values({ likerId, mediaId, createdAt: at })
      .onConflictDoNothing()
      .returning({ likerId: likeRewards.likerId });
    return rows.length > 0;
  }

  /**
   * Per type, visibility rule and viewer (none, or one signed in, whose statement adds accounts' rule
   * of whom they may see): the media a user reacted to, as prepared pages.
   */
  readonly #reactedMedia = byKey(['like', 'dislike'] as const, (type) =>
    byKey(['visible', 'listed'] as const, (rule) =>
      byKey(
        ['anonymous', 'viewer'] as const,
        (who) =>
          new PreparedPage<ReactedMedia>(
            this.source,
            `reactions.media.${type}.${rule}.${who}`,
            reactedMediaKeysets[type],
            (db, where, orderBy) =>
              db
                .select({
                  media: listedMediaColumns,
                  reactionId: mediaReactions.id,
                  reactedAt: mediaReactions.createdAt,
                })
                .from(mediaReactions)
                .innerJoin(media, eq(media.id, mediaReactions.mediaId))
                .where(
                  and(
                    eq(mediaReactions.userId, sql.placeholder('userId')),
                    eq(mediaReactions.type, literal(type)),
                    mediaVisibility[rule](who === 'viewer' ? sql.placeholder('viewerId') : null),
                    notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)),
                    where,
                  ),
                )
                .orderBy(...orderBy),
          ),
      ),
    ),
  );

  /**
   * The media a user reacted to with `type`, newest reaction first, among those the rule lets the
   * viewer see: `visible` (they can open it) or `listed` (it may appear in a public list); never
   * media of an owner the viewer blocks or is blocked by.
   */
  listMediaOfUser(
    userId: string,
    type: ReactionType,
    rule: MediaVisibility,
    viewerId: string | null,
    page: PageRequest,
    hiddenBy: string[],
  ): Promise<ReactedMedia[]> {
    return viewerId === null
      ? this.#reactedMedia[type][rule].anonymous.run(page, { userId, hiddenBy })
      : this.#reactedMedia[type][rule].viewer.run(page, { userId, viewerId, hiddenBy });
  }

  /**
   * The users who reacted to a media with `type`, newest first. Users who keep their reactions
   * private are left out (but for the viewer themself), and so are users others may not see; the
   * media's counters still count them.
   */
  async listUsersOfMedia(
    mediaId: string,
    type: ReactionType,
    viewerId: string | null,
    page: PageRequest,
  ): Promise<Reactor[]> {
    const { where, orderBy } = keyset(reactorsKeysets[type], page);
    return this.db
      .select({ user: publicUserColumns, reactionId: mediaReactions.id, reactedAt: mediaReactions.createdAt })
      .from(mediaReactions)
      .innerJoin(users, eq(users.id, mediaReactions.userId))
      .where(
        and(
          eq(mediaReactions.mediaId, mediaId),
          eq(mediaReactions.type, type),
          reactionsShownTo(viewerId),
          visibleUser(),
          shownTo(viewerId, users.id),
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** The data export's reactions of a user (likes and dislikes), in keyset batches by id. */
  async exportRows(userId: string, after: string | null, limit: number): Promise<ReactionRow[]> {
    return this.db
      .select()
      .from(mediaReactions)
      .where(and(eq(mediaReactions.userId, userId), after === null ? undefined : gt(mediaReactions.id, after)))
      .orderBy(mediaReactions.id)
      .limit(limit);
  }
}
