/**
 * Comments written from other servers (docs/api.md, Federation): a remote actor's Note replying to a
 * local post becomes a comment of the actor's shadow user through the comments area's own methods
 * (the same rules and effects as a local comment: visibility and blocks, bans, counters,
 * `comment.created`), and the Note's URI is kept beside it, so that the actor's Update edits the comment,
 * its Delete removes it, and the same Note delivered twice makes one comment.
 */
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { CommentsService } from '../comments/public.ts';
import type { RemoteCommentsRepository } from './remote-comments.repository.ts';

/** Where a remote reply goes: on a local post, under one of its comments or at top level. */
export interface ReplyTarget {
  mediaId: string;
  parentId?: string;
}

/**
 * The comments area's refusals a remote actor meets as a local user would (the post is not there for
 * them, a block, a ban, a body with nothing visible, a parent gone): the activity changes nothing.
 */
const refusals = new Set([
  'notFound',
  'accountBanned',
  'validationFailed',
  'invalidParentComment',
  'parentCommentDeleted',
]);
const refused = (error: unknown) => error instanceof AppError && refusals.has(error.code);

export interface RemoteCommentsServiceDeps {
  transactions: Transactions;
  repository: RemoteCommentsRepository;
  comments: CommentsService;
  clock: Clock;
}

export class RemoteCommentsService {
  readonly #deps: RemoteCommentsServiceDeps;

  constructor(deps: RemoteCommentsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * A reply to the Note at `objectUri`, when it is a comment written from another server: the new
   * comment answers it (a conversation across servers goes on under the post). Null otherwise.
   */
  async replyTargetOf(objectUri: string): Promise<ReplyTarget | null> {
    const row = await this.#deps.repository.findByObject(objectUri);
    return row === null ? null : { mediaId: row.mediaId, parentId: row.commentId };
  }

  /** The comment the Note at `objectUri` became here, or null. */
  async commentIdOf(objectUri: string): Promise<string | null> {
    return (await this.#deps.repository.findByObject(objectUri))?.commentId ?? null;
  }

  /**
   * The Note at `objectUri` as a comment of `authorId` (a shadow user); its id, or null when the Note
   * was received before (whatever became of its comment) or the comments area refuses it.
   */
  async receive(authorId: string, objectUri: string, target: ReplyTarget, body: string): Promise<string | null> {
    if ((await this.#deps.repository.findByObject(objectUri)) !== null) return null;
    try {
      return await this.#deps.transactions.run(async () => {
        const view = await this.#deps.comments.create(authorId, target.mediaId, { body, parentId: target.parentId });
        const commentId = view.rows[0]?.comment.id;
        if (commentId === undefined) throw new Error('comments.create answered no comment');
        await this.#deps.repository.insert({
          commentId,
          objectUri,
          mediaId: target.mediaId,
          createdAt: this.#deps.clock.now(),
        });
        return commentId;
      });
    } catch (error) {
      // A second delivery of the Note racing this one loses on the URI's unique key: one comment stays.
      if (refused(error) || uniqueViolation(error) !== null) return null;
      throw error;
    }
  }

  /** The author's Update of the Note: the comment's new text. False when nothing was edited. */
  async edit(authorId: string, objectUri: string, body: string): Promise<boolean> {
    const row = await this.#deps.repository.findByObject(objectUri);
    if (row === null) return false;
    return this.#deps.comments.edit(authorId, row.commentId, body).then(
      () => true,
      (error: unknown) => (refused(error) ? false : Promise.reject(error)),
    );
  }

  /** The author's Delete of the Note: the comment deleted (a placeholder, as its author's deletion). */
  async remove(authorId: string, objectUri: string): Promise<boolean> {
    const row = await this.#deps.repository.findByObject(objectUri);
    if (row === null) return false;
    return this.#deps.comments.remove(authorId, row.commentId).then(
      () => true,
      (error: unknown) => (refused(error) ? false : Promise.reject(error)),
    );
  }
}
