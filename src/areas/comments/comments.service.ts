/**
 * The rules of comments: who may read, write, edit and delete them, the depth of threads, and
 * media.comments_count, which counts visible comments (not deleted, author not banned) exactly: every
 * writer locks the media row (MediaService.lockForCounters) and moves the counter by what its
 * conditional update really changed.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { isLowercaseUuid, newId } from '../../platform/ids/ids.ts';
import { type DecisionContext, directAction } from '../../platform/moderation/decision-context.ts';
import { erasedAccountName, renameMention } from '../../platform/text/mentions.ts';
import type { UsersService } from '../accounts/public.ts';
import type { FilterResult, FiltersService } from '../filters/public.ts';
import type { MediaService } from '../media/public.ts';
import type { MediaRow } from '../media/read-model.ts';
import { checkedBody, extractMentions, hashtagsOf } from './comment-text.ts';
import type { CommentsRepository, ListedComment } from './comments.repository.ts';
import './events.ts';
import type { CommentRow, DeletedBy } from './tables.ts';

/** The deepest level: 0 top level, 1 reply, 2 reply to a reply (a reply to that joins its parent). */
export const maxDepth = 2;
/** Comments a thread answer holds at most; a longer thread is read further through /replies. */
export const threadCap = 500;

const mediaNotFound = () =>
  new AppError('notFound', { source: { parameter: 'mediaId' }, detail: 'no such media, or not visible to you' });
const commentNotFound = (detail = 'no such comment, or not visible to you') =>
  new AppError('notFound', { source: { parameter: 'commentId' }, detail });

/**
 * A page of comments with the current usernames of the users they mention, those others may see only:
 * a mention of a hidden account shows unlinked, and linked again once it is visible.
 */
export interface CommentsView {
  /** `filtered`: the viewer's warn filters (context comments) the comment matched, on the lists' rows. */
  rows: Array<ListedComment & { filtered?: FilterResult[] }>;
  usernames: Map<string, string | null>;
}

export interface CommentsServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: CommentsRepository;
  media: MediaService;
  users: UsersService;
  filters: FiltersService;
  clock: Clock;
}

export class CommentsService {
  readonly #deps: CommentsServiceDeps;

  constructor(deps: CommentsServiceDeps) {
    this.#deps = deps;
  }

  // For the reports area (and moderation) ------------------------------------------------------------

  /** A live comment the viewer can see (for a report of it); null when missing, deleted or not visible. */
  async findReportable(
    commentId: string,
    viewerId: string,
  ): Promise<{ id: string; mediaId: string; authorId: string } | null> {
    const row = await this.#find(commentId);
    if (row === null || row.deletedAt !== null || row.authorBanned) return null;
    if ((await this.#deps.media.findVisibleMedia(row.mediaId, viewerId)) === null) return null;
    if (row.authorId !== null && (await this.#deps.users.blockedEitherWay(viewerId, row.authorId))) return null;
    return { id: row.id, mediaId: row.mediaId, authorId: row.authorId };
  }

  /** A comment in any state, for moderators. */
  async findForModeration(commentId: string): Promise<{
    id: string;
    mediaId: string;
    authorId: string | null;
    body: string | null;
    deleted: boolean;
    authorBanned: boolean;
    createdAt: Date;
  } | null> {
    const row = await this.#find(commentId);
    if (row === null) return null;
    return {
      id: row.id,
      mediaId: row.mediaId,
      authorId: row.authorId,
      body: row.body,
      deleted: row.deletedAt !== null,
      authorBanned: row.authorBanned,
      createdAt: row.createdAt,
    };
  }

  /**
   * Deletes a comment as a moderator (in the caller's transaction); false when missing or already
   * deleted. A moderation decision its author is told of and may appeal: `comment.removedByModerator`
   * carries the text the placeholder loses, which an appeal's reversal gives back.
   */
  async removeAsModerator(commentId: string, context: DecisionContext = directAction): Promise<boolean> {
    const row = await this.#find(commentId);
    if (row === null || row.deletedAt !== null) return false;
    return this.#deps.transactions.run(async () => {
      if (!(await this.#softDelete(row, 'moderator'))) return false;
      await this.#deps.events.publish('comment.removedByModerator', {
        commentId: row.id,
        mediaId: row.mediaId,
        authorId: row.authorId,
        body: row.body ?? '',
        context,
      });
      return true;
    });
  }

  /**
   * Undoes a moderator's deletion (an appeal reversed): the comment shows again with `body`, its
   * mentions resolved anew, and counts on its media again unless its author is banned. False when the
   * comment is gone, is no longer a moderator's placeholder, or its media is gone.
   */
  async restoreAsModerator(commentId: string, body: string): Promise<boolean> {
    const row = await this.#find(commentId);
    if (row === null || row.deletedBy !== 'moderator') return false;
    const mentions = await this.#resolveMentions(body, row.authorId);
    return this.#deps.transactions.run(async () => {
      if ((await this.#deps.media.lockForWrite(row.mediaId, [])) === null) return false;
      const restored = await this.#deps.repository.restoreModerated(row.id, {
        body,
        mentions,
        hashtags: hashtagsOf(body),
      });
      if (restored === null) return false;
      if (restored.visible) await this.#deps.media.adjustCounters(row.mediaId, { comments: 1 });
      return true;
    });
  }

  // Reading -----------------------------------------------------------------------------------------

  /** The top-level comments of a media the viewer can see, oldest first. */
  async listTopLevel(mediaId: string, viewerId: string | null, page: PageRequest): Promise<CommentsView> {
    const target = await this.#deps.media.findVisibleMedia(mediaId, viewerId);
    if (target === null) throw mediaNotFound();
    const hiddenBy = await this.#deps.filters.hiddenFor(viewerId, 'comments');
    return this.#warned(viewerId, await this.#deps.repository.listTopLevel(target.id, page, hiddenBy));
  }

  /** The direct replies of a comment shown in its thread, oldest first. */
  async listReplies(commentId: string, viewerId: string | null, page: PageRequest): Promise<CommentsView> {
    const comment = await this.#requireShown(commentId, viewerId);
    const hiddenBy = await this.#deps.filters.hiddenFor(viewerId, 'comments');
    return this.#warned(viewerId, await this.#deps.repository.listReplies(comment.comment.id, page, hiddenBy));
  }

  /** The thread around a comment, in reading order, at most threadCap comments. */
  async thread(commentId: string, viewerId: string | null): Promise<CommentsView & { truncated: boolean }> {
    const { comment } = await this.#requireShown(commentId, viewerId);
    const hiddenBy = await this.#deps.filters.hiddenFor(viewerId, 'comments');
    const rows = await this.#deps.repository.listThread(comment.rootId ?? comment.id, threadCap + 1, hiddenBy);
    return { ...(await this.#warned(viewerId, rows.slice(0, threadCap))), truncated: rows.length > threadCap };
  }

  // Writing -----------------------------------------------------------------------------------------

  /** Comments a media the viewer can see, at top level or in reply to one of its live comments. */
  async create(
    viewerId: string,
    mediaId: string,
    input: { body: string; parentId?: string | undefined },
  ): Promise<CommentsView> {
    const target = await this.#deps.media.findVisibleMedia(mediaId, viewerId);
    if (target === null) throw mediaNotFound();
    const body = checkedBody(input.body);
    const parentId = input.parentId ?? null;
    if (parentId !== null && !isLowercaseUuid(parentId)) {
      throw new AppError('validationFailed', { source: { pointer: '/parentId' }, detail: 'must be a comment id' });
    }
    const mentions = await this.#resolveMentions(body, viewerId);
    const id = newId();
    await this.#deps.transactions.run(async () => {
      // The author's experience and badges move (comment.created), and a ban is checked under their lock.
      const locked = await this.#deps.media.lockForWrite(target.id, [viewerId]);
      if (locked === null) throw mediaNotFound();
      const author = locked.get(viewerId);
      if (!author || author.bannedAt !== null) throw new AppError('accountBanned');
      const place = parentId === null ? null : await this.#placeUnder(parentId, target, viewerId);
      await this.#deps.repository.insert({
        id,
        mediaId: target.id,
        authorId: viewerId,
        parentId: place?.parentId ?? null,
        rootId: place?.rootId ?? null,
        depth: place?.depth ?? 0,
        body,
        mentions,
        hashtags: hashtagsOf(body),
        createdAt: this.#deps.clock.now(),
      });
      await this.#deps.media.adjustCounters(target.id, { comments: 1 });
      await this.#deps.events.publish('comment.created', {
        commentId: id,
        mediaId: target.id,
        mediaOwnerId: target.ownerId,
        authorId: viewerId,
        parentAuthorId: place?.answeredAuthorId ?? null,
        mentions,
        commentsWritten: await this.#deps.repository.writtenBy(viewerId),
      });
    });
    return this.#one(id);
  }

  /** The author edits their live comment; anyone else's, or a deleted one, is 404. */
  async edit(viewerId: string, commentId: string, rawBody: string): Promise<CommentsView> {
    const row = await this.#find(commentId);
    if (row === null || row.authorId !== viewerId || row.deletedAt !== null) {
      throw commentNotFound('no such comment of yours');
    }
    if ((await this.#deps.media.findVisibleMedia(row.mediaId, viewerId)) === null) throw commentNotFound();
    const body = checkedBody(rawBody);
    const mentions = await this.#resolveMentions(body, viewerId);
    const edited = await this.#deps.repository.edit(row.id, viewerId, {
      body,
      mentions,
      hashtags: hashtagsOf(body),
      editedAt: this.#deps.clock.now(),
    });
    if (edited === null) throw commentNotFound('no such comment of yours');
    return this.#one(row.id);
  }

  /** The author, or the media's owner, deletes a live comment: it stays as a placeholder. */
  async remove(viewerId: string, commentId: string): Promise<void> {
    const row = await this.#find(commentId);
    if (row === null || row.deletedAt !== null) throw commentNotFound();
    const target = await this.#deps.media.findVisibleMedia(row.mediaId, viewerId);
    if (target === null) throw commentNotFound();
    const by: DeletedBy | null =
      row.authorId === viewerId ? 'author' : target.ownerId === viewerId ? 'mediaOwner' : null;
    if (by === null) throw commentNotFound('no such comment of yours or on your media');
    if (!(await this.#softDelete(row, by))) throw commentNotFound();
  }

  // What accounts' events change --------------------------------------------------------------------

  /** A ban hides the user's comments (an unban brings them back); counts move on each media. */
  async setAuthorBanned(userId: string, banned: boolean): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const mediaIds = await this.#deps.repository.mediaToFlip(userId, banned);
      for (const mediaId of mediaIds) await this.#deps.media.lockForCounters(mediaId);
      const changed = await this.#deps.repository.setAuthorBanned(userId, mediaIds, banned);
      for (const [mediaId, count] of changed) {
        await this.#deps.media.adjustCounters(mediaId, { comments: banned ? -count : count });
      }
    });
  }

  /**
   * An erased account: its comments become deleted placeholders, and `@formerUsername` in other
   * comments becomes `@username`, so no comment keeps the former name.
   */
  async eraseAuthor(userId: string, formerUsername: string | null, username: string): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const mediaIds = await this.#deps.repository.mediaWithLiveComments(userId);
      for (const mediaId of mediaIds) await this.#deps.media.lockForCounters(mediaId);
      const lost = await this.#deps.repository.eraseAuthor(userId, mediaIds, this.#deps.clock.now());
      for (const [mediaId, count] of lost) await this.#deps.media.adjustCounters(mediaId, { comments: -count });
      if (formerUsername === null) return;
      for (const { id, body } of await this.#deps.repository.mentioning(userId)) {
        const renamed = renameMention(body, formerUsername, username);
        if (renamed !== body) await this.#deps.repository.setBody(id, renamed);
      }
    });
  }

  /**
   * An account deleted by its owner (`user.erasing`): `@username` in others' comments becomes
   * `@deleted-user`, its comments go (with the replies under them), and the comment counters of every
   * media concerned are recounted from the visible rows, each media locked first.
   */
  async eraseUser(userId: string): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const user = await this.#deps.users.find(userId);
      if (user?.username) {
        for (const { id, body } of await this.#deps.repository.mentioning(userId)) {
          const renamed = renameMention(body, user.username, erasedAccountName);
          if (renamed !== body) await this.#deps.repository.setBody(id, renamed);
        }
      }
      const mediaIds = await this.#deps.repository.mediaWithCommentsOf(userId);
      const before = new Map<string, number>();
      for (const mediaId of mediaIds) {
        if (await this.#deps.media.lockForCounters(mediaId))
          before.set(mediaId, await this.#deps.repository.visibleCountOf(mediaId));
      }
      await this.#deps.repository.eraseUser(userId);
      for (const [mediaId, count] of before) {
        const lost = count - (await this.#deps.repository.visibleCountOf(mediaId));
        if (lost !== 0) await this.#deps.media.adjustCounters(mediaId, { comments: -lost });
      }
    });
  }

  /** Recount source for the admin recount of media counters. */
  visibleCountOf(mediaId: string): Promise<number> {
    return this.#deps.repository.visibleCountOf(mediaId);
  }

  /** The author's comments that are not deleted (the operators' view of a user, GET /admin/users/{hex}). */
  writtenBy(authorId: string): Promise<number> {
    return this.#deps.repository.writtenBy(authorId);
  }

  // Helpers -----------------------------------------------------------------------------------------

  #find(commentId: string): Promise<CommentRow | null> {
    const id = commentId.toLowerCase();
    return isLowercaseUuid(id) ? this.#deps.repository.find(id) : Promise.resolve(null);
  }

  /** A comment shown in its thread, on a media the viewer can see; else 404. */
  async #requireShown(commentId: string, viewerId: string | null): Promise<ListedComment> {
    const listed = await this.#deps.repository.findShown(commentId);
    if (listed === null) throw commentNotFound();
    if ((await this.#deps.media.findVisibleMedia(listed.comment.mediaId, viewerId)) === null) throw commentNotFound();
    return listed;
  }

  /**
   * Where a reply goes: under a live comment of the same media; a reply to a comment at the deepest
   * level joins that comment's parent, so threads never go deeper than maxDepth.
   */
  async #placeUnder(parentId: string, target: MediaRow, authorId: string) {
    const parent = await this.#deps.repository.find(parentId);
    if (parent === null || parent.mediaId !== target.id) {
      throw new AppError('invalidParentComment', { source: { pointer: '/parentId' } });
    }
    if (parent.deletedAt !== null || parent.authorBanned) {
      throw new AppError('parentCommentDeleted', { source: { pointer: '/parentId' } });
    }
    // Across a block the parent does not exist to the author (answered as for an unknown comment).
    if (parent.authorId !== null && (await this.#deps.users.blockedEitherWay(authorId, parent.authorId))) {
      throw new AppError('invalidParentComment', { source: { pointer: '/parentId' } });
    }
    const answeredAuthorId = parent.authorId;
    if (parent.depth >= maxDepth) {
      return { parentId: parent.parentId, rootId: parent.rootId, depth: maxDepth, answeredAuthorId };
    }
    return { parentId: parent.id, rootId: parent.rootId ?? parent.id, depth: parent.depth + 1, answeredAuthorId };
  }

  /** Soft-deletes with the media locked, moving its counter when a visible comment goes. */
  #softDelete(row: CommentRow, by: DeletedBy): Promise<boolean> {
    return this.#deps.transactions.run(async () => {
      if ((await this.#deps.media.lockForWrite(row.mediaId, [])) === null) return false;
      const deleted = await this.#deps.repository.softDelete(row.id, by, this.#deps.clock.now());
      if (deleted === null) return false;
      if (deleted.wasVisible) await this.#deps.media.adjustCounters(row.mediaId, { comments: -1 });
      return true;
    });
  }

  /**
   * The users an @name designates, as ids; unknown, erased and hidden names (banned, being deleted:
   * `findByUsername` applies accounts' rule) stay plain text, and so do users the author blocks or is
   * blocked by (`findByUsernameFor`): such a mention links nobody and tells nobody.
   */
  async #resolveMentions(body: string, authorId: string): Promise<string[]> {
    const ids: string[] = [];
    for (const name of extractMentions(body)) {
      const user = await this.#deps.users.findByUsernameFor(name, authorId);
      if (user !== null && user.anonymizedAt === null && !ids.includes(user.id)) ids.push(user.id);
    }
    return ids;
  }

  async #one(id: string): Promise<CommentsView> {
    const row = await this.#deps.repository.findListed(id);
    if (row === null) throw commentNotFound();
    return this.#view([row], null);
  }

  /**
   * A list the viewer reads: the rows as they see them (#view: blocks and mutes), with the warnings of
   * their filters (a placeholder's text, a hidden user's comment included, is none).
   */
  async #warned(viewerId: string | null, rows: ListedComment[]): Promise<CommentsView> {
    const view = await this.#view(rows, viewerId);
    const textOf = ({ comment }: ListedComment) =>
      comment.deletedAt === null && !comment.authorBanned ? (comment.body ?? '') : '';
    return { ...view, rows: await this.#deps.filters.warn(viewerId, 'comments', view.rows, textOf) };
  }

  /**
   * The rows as the viewer sees them (accounts' rule, in memory on the page read): a comment of a user
   * hidden from them (a block either way, their mute) is a placeholder, as a banned author's (kept in
   * place, so the page's cursors stay those of the rows read); a mention of such a user shows unlinked.
   */
  async #view(rows: ListedComment[], viewerId: string | null): Promise<CommentsView> {
    const hidden = await this.#deps.users.hiddenFrom(viewerId, 'content');
    const shown =
      hidden.size === 0
        ? rows
        : rows.map((row) =>
            hidden.has(row.comment.authorId ?? '')
              ? { ...row, comment: { ...row.comment, authorBanned: true } }
              : { ...row, comment: { ...row.comment, mentions: row.comment.mentions.filter((id) => !hidden.has(id)) } },
          );
    const ids = new Set(shown.flatMap((row) => row.comment.mentions));
    return { rows: shown, usernames: await this.#deps.repository.usernames([...ids]) };
  }
}
