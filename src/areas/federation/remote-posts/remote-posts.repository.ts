/**
 * All SQL of remote posts (federation_remote_posts, and local users' likes and replies of them);
 * users and follows are read through their owners' read models.
 */
import { and, asc, eq, exists, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { defineKeyset } from '../../../platform/db/keyset.ts';
import { keyset } from '../../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../../platform/db/page-request.ts';
import { Repository } from '../../../platform/db/repository.ts';
import { shownTo, userRows, visibleUser } from '../../accounts/read-model.ts';
import { filterText, notHiddenByFilters } from '../../filters/read-model.ts';
import { followRows } from '../../follows/read-model.ts';
import { federationRemoteActors } from '../tables.ts';
import {
  federationRemotePostLikes,
  federationRemotePostReplies,
  federationRemotePosts,
  type RemotePostReplyRow,
  type RemotePostRow,
} from './tables.ts';

/** A remote post as the following list shows it: with its author and whether the viewer liked it. */
export interface ListedRemotePost extends RemotePostRow {
  authorHandle: string;
  authorName: string | null;
  authorAvatarUrl: string | null;
  likedByMe: boolean;
}

/** What keyword filters read of a remote post: its text, then its content warning. */
export const remotePostFilterText = () =>
  sql`concat_ws(' ', ${federationRemotePosts.content}, ${federationRemotePosts.summary})`;
export const remotePostFilterTextOf = (row: Pick<RemotePostRow, 'content' | 'summary'>): string =>
  [row.content, row.summary].filter((part) => part !== null).join(' ');

/** The following list of remote posts, newest first. */
export const remotePostsKeyset = defineKeyset<ListedRemotePost>({
  name: 'remote-posts',
  shape: ['timestamp', 'uuid'],
  columns: [federationRemotePosts.publishedAt, federationRemotePosts.id],
  keyOf: (row) => [row.publishedAt, row.id],
});

/** What an inbound note sets of a post (the rest is its identity: id, URI, author, arrival). */
export type RemotePostFields = Pick<
  RemotePostRow,
  'url' | 'content' | 'summary' | 'sensitive' | 'publishedAt' | 'editedAt' | 'attachments'
>;

/** Rows deleted by one statement of the pruning (the job loops until none is left). */
const pruneBatch = 1000;

export class RemotePostsRepository extends Repository {
  /** Whether a local user (not another remote actor's shadow) follows the user. */
  async followedLocally(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql`1` })
      .from(followRows)
      .innerJoin(userRows, eq(userRows.id, followRows.followerId))
      .where(and(eq(followRows.followeeId, userId), isNull(userRows.remoteHandle)))
      .limit(1);
    return row !== undefined;
  }

  async findByUri(uri: string): Promise<RemotePostRow | null> {
    const [row] = await this.db.select().from(federationRemotePosts).where(eq(federationRemotePosts.uri, uri));
    return row ?? null;
  }

  /** The post, if its author is visible (not banned, not being deleted) and no block stands between them and the user. */
  async findFor(userId: string, id: string): Promise<RemotePostRow | null> {
    const [row] = await this.db
      .select({ post: federationRemotePosts })
      .from(federationRemotePosts)
      .innerJoin(userRows, eq(userRows.id, federationRemotePosts.authorId))
      .where(and(eq(federationRemotePosts.id, id), visibleUser(), shownTo(userId, federationRemotePosts.authorId)));
    return row?.post ?? null;
  }

  /** Inserts the post; false when a post of that URI is already kept (a repeated Create). */
  async insert(row: RemotePostRow): Promise<boolean> {
    const inserted = await this.db
      .insert(federationRemotePosts)
      .values(row)
      .onConflictDoNothing({ target: federationRemotePosts.uri })
      .returning({ id: federationRemotePosts.id });
    return inserted.length > 0;
  }

  /** Updates the author's post of that URI; false when there is none. */
  async update(uri: string, authorId: string, fields: RemotePostFields): Promise<boolean> {
    const updated = await this.db
      .update(federationRemotePosts)
      .set(fields)
      .where(and(eq(federationRemotePosts.uri, uri), eq(federationRemotePosts.authorId, authorId)))
      .returning({ id: federationRemotePosts.id });
    return updated.length > 0;
  }

  /** Deletes the author's post of that URI (its likes and replies with it); false when there is none. */
  async delete(uri: string, authorId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(federationRemotePosts)
      .where(and(eq(federationRemotePosts.uri, uri), eq(federationRemotePosts.authorId, authorId)))
      .returning({ id: federationRemotePosts.id });
    return deleted.length > 0;
  }

  /**
   * The remote posts of the accounts the viewer follows, newest first: authors visible, not blocked
   * either way nor muted by the viewer at `at`, and no post a `hide` filter of the viewer matches
   * (`hiddenBy`: FiltersService.hiddenFor's patterns).
   */
  async following(viewerId: string, page: PageRequest, at: Date, hiddenBy: string[]): Promise<ListedRemotePost[]> {
    const { where, orderBy } = keyset(remotePostsKeyset, page);
    const likedByMe = exists(
      this.db
        .select({ one: sql`1` })
        .from(federationRemotePostLikes)
        .where(
          and(
            eq(federationRemotePostLikes.postId, federationRemotePosts.id),
            eq(federationRemotePostLikes.userId, viewerId),
          ),
        ),
    );
    const followed = exists(
      this.db
        .select({ one: sql`1` })
        .from(followRows)
        .where(and(eq(followRows.followerId, viewerId), eq(followRows.followeeId, federationRemotePosts.authorId))),
    );
    const rows = await this.db
      .select({
        post: federationRemotePosts,
        authorHandle: userRows.remoteHandle,
        authorName: userRows.nickname,
        authorAvatarUrl: federationRemoteActors.avatarUrl,
        likedByMe: sql<boolean>`${likedByMe}`,
      })
      .from(federationRemotePosts)
      .innerJoin(userRows, eq(userRows.id, federationRemotePosts.authorId))
      .leftJoin(federationRemoteActors, eq(federationRemoteActors.userId, federationRemotePosts.authorId))
      .where(
        and(
          followed,
          visibleUser(),
          shownTo(viewerId, federationRemotePosts.authorId, { kind: 'content', at }),
          notHiddenByFilters(sql`${sql.param(hiddenBy)}`, filterText(remotePostFilterText())),
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
    return rows.map(({ post, authorHandle, ...author }) => ({ ...post, ...author, authorHandle: authorHandle ?? '' }));
  }

  /** The user's replies to these posts, oldest first. */
  async repliesOf(userId: string, postIds: string[]): Promise<RemotePostReplyRow[]> {
    if (postIds.length === 0) return [];
    return this.db
      .select()
      .from(federationRemotePostReplies)
      .where(and(eq(federationRemotePostReplies.userId, userId), inArray(federationRemotePostReplies.postId, postIds)))
      .orderBy(asc(federationRemotePostReplies.createdAt), asc(federationRemotePostReplies.id));
  }

  /** Records the like; false when the user already likes the post. */
  async like(postId: string, userId: string, activityUri: string, at: Date): Promise<boolean> {
    const inserted = await this.db
      .insert(federationRemotePostLikes)
      .values({ postId, userId, activityUri, createdAt: at })
      .onConflictDoNothing()
      .returning({ postId: federationRemotePostLikes.postId });
    return inserted.length > 0;
  }

  /** Removes the like; the id of the Like it sent, or null when there was none. */
  async unlike(postId: string, userId: string): Promise<string | null> {
    const [deleted] = await this.db
      .delete(federationRemotePostLikes)
      .where(and(eq(federationRemotePostLikes.postId, postId), eq(federationRemotePostLikes.userId, userId)))
      .returning({ activityUri: federationRemotePostLikes.activityUri });
    return deleted?.activityUri ?? null;
  }

  async insertReply(row: RemotePostReplyRow): Promise<void> {
    await this.db.insert(federationRemotePostReplies).values(row);
  }

  /** Deletes up to a batch of posts published before `before` (their likes and replies with them); how many. */
  async pruneBatch(before: Date): Promise<number> {
    const doomed = this.db
      .select({ id: federationRemotePosts.id })
      .from(federationRemotePosts)
      .where(lt(federationRemotePosts.publishedAt, before))
      .limit(pruneBatch);
    const deleted = await this.db
      .delete(federationRemotePosts)
      .where(inArray(federationRemotePosts.id, doomed))
      .returning({ id: federationRemotePosts.id });
    return deleted.length;
  }

  /** The user's likes of remote posts for their data export, by post id (keyset batches). */
  exportLikes(userId: string, after: string | null, limit: number) {
    return this.db
      .select({
        postId: federationRemotePostLikes.postId,
        postUri: federationRemotePosts.uri,
        createdAt: federationRemotePostLikes.createdAt,
      })
      .from(federationRemotePostLikes)
      .innerJoin(federationRemotePosts, eq(federationRemotePosts.id, federationRemotePostLikes.postId))
      .where(
        and(
          eq(federationRemotePostLikes.userId, userId),
          after === null ? undefined : gt(federationRemotePostLikes.postId, after),
        ),
      )
      .orderBy(asc(federationRemotePostLikes.postId))
      .limit(limit);
  }

  /** The user's replies to remote posts for their data export, by id (keyset batches). */
  exportReplies(userId: string, after: string | null, limit: number) {
    return this.db
      .select({
        id: federationRemotePostReplies.id,
        inReplyTo: federationRemotePosts.uri,
        text: federationRemotePostReplies.text,
        createdAt: federationRemotePostReplies.createdAt,
      })
      .from(federationRemotePostReplies)
      .innerJoin(federationRemotePosts, eq(federationRemotePosts.id, federationRemotePostReplies.postId))
      .where(
        and(
          eq(federationRemotePostReplies.userId, userId),
          after === null ? undefined : gt(federationRemotePostReplies.id, after),
        ),
      )
      .orderBy(asc(federationRemotePostReplies.id))
      .limit(limit);
  }

  /** The user's likes and replies, and, for a remote actor's shadow, its posts (others' likes and replies of them too). */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(federationRemotePostLikes).where(eq(federationRemotePostLikes.userId, userId));
    await this.db.delete(federationRemotePostReplies).where(eq(federationRemotePostReplies.userId, userId));
    await this.db.delete(federationRemotePosts).where(eq(federationRemotePosts.authorId, userId));
  }
}
