/**
 * All SQL of comments. Writers lock the media row first (MediaService.lockForCounters, in their
 * transaction) and move media.comments_count by what their conditional updates really changed, so the
 * counter follows the visible comments exactly (not deleted, author not banned).
 *
 * What a thread shows: a visible comment, or a placeholder for a deleted or hidden one that still has
 * a visible reply below it (depth is at most 2, so a top-level comment's descendants are the rows
 * with its root_id, and a reply's are its direct replies). Lists read authors through accounts' read model.
 */
import { type AnyColumn, and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { defineKeyset, type Keyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import { literal } from '../../platform/db/literals.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { PreparedPage } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { type PublicUserRow, publicUserColumns, userRows as users, visibleUser } from '../accounts/read-model.ts';
import { filterText, notHiddenByFilters } from '../filters/read-model.ts';
import { type CommentRow, comments, type DeletedBy } from './tables.ts';

/** A comment as lists show it: its row, its author, and how many direct replies are shown under it. */
export interface ListedComment {
  comment: CommentRow;
  author: PublicUserRow;
  repliesCount: number;
}

/** Other comments in subqueries on the comment in hand: a descendant, a reply, a branch's head. */
const [descendant, reply, branchHead] = [alias(comments, 'd'), alias(comments, 'r'), alias(comments, 'b')];

/** Visible: not deleted, author not banned. */
const visible = (row: { deletedAt: AnyColumn; authorBanned: AnyColumn }) =>
  sql`(${row.deletedAt} IS NULL AND NOT ${row.authorBanned})`;

/** Shown in a thread: visible, or a placeholder with a visible descendant. */
const shown = sql`(${comments.deletedAt} IS NULL AND NOT ${comments.authorBanned}
  OR EXISTS (SELECT 1 FROM ${comments} AS ${descendant} WHERE (${descendant.rootId} = ${comments.id} OR ${descendant.parentId} = ${comments.id}) AND ${visible(descendant)}))`;

/** Direct replies shown under the comment (a reply's descendants are its direct replies). */
const repliesCount = sql<number>`(SELECT count(*)::int FROM ${comments} AS ${reply} WHERE ${reply.parentId} = ${comments.id}
  AND (${visible(reply)} OR EXISTS (SELECT 1 FROM ${comments} AS ${descendant} WHERE ${descendant.parentId} = ${reply.id} AND ${visible(descendant)})))`;

/** A deleted comment keeps its place in the thread, without its text. */
const placeholder = (at: Date, by: DeletedBy) =>
  ({ body: null, mentions: [], hashtags: [], deletedAt: at, deletedBy: by }) satisfies Partial<CommentRow>;
/** Whether the row was visible before a deletion (the update does not change its author's ban). */
const wasVisible = () => sql<boolean>`NOT ${comments.authorBanned}`;

/** What the viewer's hide filters read of a comment: its text while it is visible (a placeholder has none). */
const notHidden = notHiddenByFilters(
  sql.placeholder('hiddenBy'),
  filterText(sql`CASE WHEN ${visible(comments)} THEN ${comments.body} END`),
);
const notHiddenBy = (hiddenBy: string[]) =>
  notHiddenByFilters(
    sql`${sql.param(hiddenBy)}`,
    filterText(sql`CASE WHEN ${visible(comments)} THEN ${comments.body} END`),
  );

const listedColumns = { comment: comments, author: publicUserColumns, repliesCount };

/** Comments in reading order: oldest first (a conversation reads downwards). */
const oldestFirst = (name: string): Keyset<ListedComment> =>
  defineKeyset<ListedComment>({
    name,
    shape: ['timestamp', 'uuid'],
    columns: [comments.createdAt, comments.id],
    keyOf: (row) => [row.comment.createdAt, row.comment.id],
    order: 'asc',
  });

export const topLevelKeyset = oldestFirst('comments');
export const repliesKeyset = oldestFirst('comment-replies');

export type NewComment = Pick<
  CommentRow,
  'id' | 'mediaId' | 'authorId' | 'parentId' | 'rootId' | 'depth' | 'body' | 'mentions' | 'hashtags' | 'createdAt'
>;

export class CommentsRepository extends Repository {
  readonly #topLevel = new PreparedPage<ListedComment>(
    this.source,
    'comments.topLevel',
    topLevelKeyset,
    (db, where, orderBy) =>
      db
        .select(listedColumns)
        .from(comments)
        .innerJoin(users, eq(users.id, comments.authorId))
        .where(
          and(
            eq(comments.mediaId, sql.placeholder('mediaId')),
            eq(comments.depth, literal(0)),
            shown,
            notHidden,
            where,
          ),
        )
        .orderBy(...orderBy),
  );

  /** The top-level comments of a media shown in its thread, oldest first. */
  listTopLevel(mediaId: string, page: PageRequest, hiddenBy: string[]): Promise<ListedComment[]> {
    return this.#topLevel.run(page, { mediaId, hiddenBy });
  }

  /** The direct replies of a comment shown in its thread, oldest first. */
  async listReplies(parentId: string, page: PageRequest, hiddenBy: string[]): Promise<ListedComment[]> {
    const { where, orderBy } = keyset(repliesKeyset, page);
    return this.db
      .select(listedColumns)
      .from(comments)
      .innerJoin(users, eq(users.id, comments.authorId))
      .where(and(eq(comments.parentId, parentId), shown, notHiddenBy(hiddenBy), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /**
   * A whole thread in reading order: the top-level comment, then each reply followed by its own
   * replies, at most `limit` rows.
   */
  async listThread(rootId: string, limit: number, hiddenBy: string[]): Promise<ListedComment[]> {
    // The reply a row hangs under (itself at depth 1, its parent at depth 2) orders the branches.
    const branch = sql`(SELECT ${branchHead.createdAt} FROM ${comments} AS ${branchHead} WHERE ${branchHead.id} = CASE WHEN ${comments.depth} = 2 THEN ${comments.parentId} ELSE ${comments.id} END)`;
    const branchId = sql`CASE WHEN ${comments.depth} = 2 THEN ${comments.parentId} ELSE ${comments.id} END`;
    return this.db
      .select(listedColumns)
      .from(comments)
      .innerJoin(users, eq(users.id, comments.authorId))
      .where(and(sql`(${comments.id} = ${rootId} OR ${comments.rootId} = ${rootId})`, shown, notHiddenBy(hiddenBy)))
      .orderBy(
        sql`(${comments.depth} > 0) ASC`,
        sql`${branch} ASC`,
        sql`${branchId} ASC`,
        asc(comments.depth),
        asc(comments.createdAt),
        asc(comments.id),
      )
      .limit(limit);
  }

  /** One comment as lists show it, when it is shown in its thread. */
  async findShown(id: string): Promise<ListedComment | null> {
    const [row] = await this.db
      .select(listedColumns)
      .from(comments)
      .innerJoin(users, eq(users.id, comments.authorId))
      .where(and(eq(comments.id, id), shown));
    return row ?? null;
  }

  /** One comment as lists show it, whatever its state. */
  async findListed(id: string): Promise<ListedComment | null> {
    const [row] = await this.db
      .select(listedColumns)
      .from(comments)
      .innerJoin(users, eq(users.id, comments.authorId))
      .where(eq(comments.id, id));
    return row ?? null;
  }

  async find(id: string): Promise<CommentRow | null> {
    const [row] = await this.db.select().from(comments).where(eq(comments.id, id));
    return row ?? null;
  }

  async insert(row: NewComment): Promise<CommentRow> {
    const [inserted] = await this.db.insert(comments).values(row).returning();
    return returned(inserted, 'comments.insert');
  }

  /** Edits a live comment of the author; null when there is none (missing, deleted, someone else's). */
  async edit(
    id: string,
    authorId: string,
    patch: Pick<CommentRow, 'body' | 'mentions' | 'hashtags' | 'editedAt'>,
  ): Promise<CommentRow | null> {
    const [row] = await this.db
      .update(comments)
      .set(patch)
      .where(and(eq(comments.id, id), eq(comments.authorId, authorId), isNull(comments.deletedAt)))
      .returning();
    return row ?? null;
  }

  /**
   * Turns a live comment into a placeholder (call with its media locked). The row before the change
   * tells whether it was visible; null when it was already deleted.
   */
  async softDelete(id: string, by: DeletedBy, at: Date): Promise<{ wasVisible: boolean } | null> {
    const [row] = await this.db
      .update(comments)
      .set(placeholder(at, by))
      .where(and(eq(comments.id, id), isNull(comments.deletedAt)))
      .returning({ wasVisible: wasVisible() });
    return row ?? null;
  }

  /**
   * Brings back a comment a moderator deleted (an appeal's reversal) with its text; null when it is
   * not (or no longer) a moderator's placeholder. `visible`: whether it counts again (author not banned).
   */
  async restoreModerated(
    id: string,
    text: { body: string; mentions: string[]; hashtags: string[] },
  ): Promise<{ visible: boolean } | null> {
    const [row] = await this.db
      .update(comments)
      .set({ ...text, deletedAt: null, deletedBy: null })
      .where(and(eq(comments.id, id), eq(comments.deletedBy, literal('moderator'))))
      .returning({ visible: wasVisible() });
    return row ?? null;
  }

  /** The media holding comments of the author whose `author_banned` differs from `banned`, in id order. */
  async mediaToFlip(authorId: string, banned: boolean): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ mediaId: comments.mediaId })
      .from(comments)
      .where(and(eq(comments.authorId, authorId), sql`${comments.authorBanned} <> ${banned}`))
      .orderBy(asc(comments.mediaId));
    return rows.map((row) => row.mediaId);
  }

  /**
   * Marks the author's comments on the given (locked) media banned or not; how many live comments
   * changed on each media.
   */
  async setAuthorBanned(authorId: string, mediaIds: string[], banned: boolean): Promise<Map<string, number>> {
    if (mediaIds.length === 0) return new Map();
    const rows = await this.db
      .update(comments)
      .set({ authorBanned: banned })
      .where(
        and(
          eq(comments.authorId, authorId),
          inArray(comments.mediaId, mediaIds),
          sql`${comments.authorBanned} <> ${banned}`,
        ),
      )
      .returning({ mediaId: comments.mediaId, deletedAt: comments.deletedAt });
    return countPerMedia(rows.filter((row) => row.deletedAt === null));
  }

  /** The media holding live comments of the author, in id order. */
  async mediaWithLiveComments(authorId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ mediaId: comments.mediaId })
      .from(comments)
      .where(and(eq(comments.authorId, authorId), isNull(comments.deletedAt)))
      .orderBy(asc(comments.mediaId));
    return rows.map((row) => row.mediaId);
  }

  /** Erases the author's live comments on the given (locked) media; how many visible ones each lost. */
  async eraseAuthor(authorId: string, mediaIds: string[], at: Date): Promise<Map<string, number>> {
    if (mediaIds.length === 0) return new Map();
    const rows = await this.db
      .update(comments)
      .set(placeholder(at, 'erasure'))
      .where(and(eq(comments.authorId, authorId), isNull(comments.deletedAt), inArray(comments.mediaId, mediaIds)))
      .returning({ mediaId: comments.mediaId, wasVisible: wasVisible() });
    return countPerMedia(rows.filter((row) => row.wasVisible));
  }

  /**
   * An erased account (`user.erasing`): the media holding any of its comments (in id order, to lock
   * first), then `eraseUser` removes them, and replies under them (a thread cannot keep a comment
   * without its author), and takes the user out of every `mentions` list.
   */
  async mediaWithCommentsOf(authorId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ mediaId: comments.mediaId })
      .from(comments)
      .where(eq(comments.authorId, authorId))
      .orderBy(asc(comments.mediaId));
    return rows.map((row) => row.mediaId);
  }

  async eraseUser(authorId: string): Promise<void> {
    await this.db.delete(comments).where(eq(comments.authorId, authorId));
    await this.db
      .update(comments)
      .set({ mentions: sql`array_remove(${comments.mentions}, ${authorId}::uuid)` })
      .where(sql`${comments.mentions} @> ARRAY[${authorId}]::uuid[]`);
  }

  /** Live comments mentioning the user: their ids and bodies. */
  async mentioning(userId: string): Promise<Array<{ id: string; body: string }>> {
    const rows = await this.db
      .select({ id: comments.id, body: comments.body })
      .from(comments)
      .where(and(sql`${comments.mentions} @> ARRAY[${userId}]::uuid[]`, isNull(comments.deletedAt)));
    return rows.filter((row): row is { id: string; body: string } => row.body !== null);
  }

  async setBody(id: string, body: string): Promise<void> {
    await this.db.update(comments).set({ body }).where(eq(comments.id, id));
  }

  /** Visible comments of a media, counted from the rows (the admin recount). */
  async visibleCountOf(mediaId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(comments)
      .where(and(eq(comments.mediaId, mediaId), isNull(comments.deletedAt), eq(comments.authorBanned, false)));
    return row?.count ?? 0;
  }

  /** The author's comments that are not deleted (the storyteller badge's metric). */
  async writtenBy(authorId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(comments)
      .where(and(eq(comments.authorId, authorId), isNull(comments.deletedAt)));
    return row?.count ?? 0;
  }

  /** Current usernames of the users others may see among these, for the mentions a page shows. */
  async usernames(ids: string[]): Promise<Map<string, string | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(and(inArray(users.id, ids), visibleUser()));
    return new Map(rows.map((row) => [row.id, row.username]));
  }

  /** The data export's comments written by a user (deleted ones as placeholders), in keyset batches by id. */
  async exportRows(authorId: string, after: string | null, limit: number): Promise<CommentRow[]> {
    return this.db
      .select()
      .from(comments)
      .where(and(eq(comments.authorId, authorId), after === null ? undefined : gt(comments.id, after)))
      .orderBy(comments.id)
      .limit(limit);
  }
}

function countPerMedia(rows: Array<{ mediaId: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { mediaId } of rows) counts.set(mediaId, (counts.get(mediaId) ?? 0) + 1);
  return counts;
}
