/**
 * When a local post's Note is sent (docs/api.md, Federation): media's events mark the post in
 * federation_post_sync, in the transaction of the change; the job federation-queue sends what changed
 * once the post has settled. A post of several photos is made from photos uploaded one by one, each a
 * post of its own until then: the wait (`settleMs`) lets it go out once, whole. Leaving the public (a
 * moderator hiding it, unpublished, deleted) is due at once.
 *
 * What is sent follows the ledger federation_sent_posts: a public post not sent yet gets Create, one
 * sent whose Note changed Update, a sent post that is no longer public (or is gone) Delete. Only an
 * owner with a remote follower is sent anything; nothing is marked for a post of anyone else.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../platform/clock.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import type { UsersService } from '../../accounts/public.ts';
import { isPubliclyVisible } from '../../media/public.ts';
import type { MediaRow } from '../../media/read-model.ts';
import { type FederatedPost, type FederatedPosts, postDigest } from './federated-posts.ts';
import type { OutboundPostsRepository } from './outbound-posts.repository.ts';

/** How long a post's changes settle before its Note is sent. */
export const settleMs = 2 * 60_000;
/** A post whose sending failed is tried again this much later. */
const retryMs = 15 * 60_000;
/** Posts taken in one batch of a run. */
const batchSize = 50;

/** What the runtime sends (outbound/post-activities.ts); false when nobody was there to send it to. */
export type PostActivity =
  | { kind: 'create' | 'update'; post: FederatedPost }
  | { kind: 'delete'; mediaId: string; ownerId: string };
export type SendPostActivity = (activity: PostActivity) => Promise<boolean>;

export interface PostSyncDeps {
  transactions: Transactions;
  clock: Clock;
  logger: FastifyBaseLogger;
  repository: OutboundPostsRepository;
  posts: FederatedPosts;
  users: UsersService;
  /** Asks for a run of the job federation-queue in `delayMs`. */
  wake(delayMs: number): void;
}

export interface PostSyncReport {
  created: number;
  updated: number;
  deleted: number;
  failed: number;
}

export class PostSync {
  readonly #deps: PostSyncDeps;

  constructor(deps: PostSyncDeps) {
    this.#deps = deps;
  }

  /**
   * A media event (in its transaction): the post the photo is, and the post it is a member of, are
   * due (at once when the photo left the public). Avatars and covers are never posts.
   */
  async mediaChanged(media: MediaRow, leftPublic: boolean): Promise<void> {
    if (media.kind !== 'post') return;
    const { repository, users, clock } = this.#deps;
    const owner = await users.findVisible(media.ownerId);
    if (owner === null || owner.remoteHandle !== null) return;
    const ids = media.postId !== null && media.postId !== media.id ? [media.id, media.postId] : [media.id];
    const hasFollower = await repository.hasRemoteFollower(media.ownerId);
    const urgent = leftPublic || !isPubliclyVisible(media);
    for (const id of ids) {
      if (!hasFollower && (await repository.sent(id)) === null) continue;
      const delayMs = urgent && id === media.id ? 0 : settleMs;
      await repository.markDue(id, media.ownerId, new Date(clock.now().getTime() + delayMs));
      await this.#deps.transactions.afterCommit(async () => this.#deps.wake(delayMs));
    }
  }

  /** The job's part: every due post, sent through `send`, each in a transaction of its own. */
  async runDue(send: SendPostActivity, stopped: () => boolean): Promise<PostSyncReport> {
    const report: PostSyncReport = { created: 0, updated: 0, deleted: 0, failed: 0 };
    const { repository, clock, transactions, logger } = this.#deps;
    // Each post once a run: one another instance holds (skipped), or whose sending failed, stays due.
    const seen = new Set<string>();
    while (!stopped()) {
      const due = (await repository.due(clock.now(), batchSize + seen.size)).filter((row) => !seen.has(row.mediaId));
      if (due.length === 0) break;
      for (const row of due) {
        seen.add(row.mediaId);
        try {
          const outcome = await transactions.run(async () => {
            if ((await repository.claim(row.mediaId, clock.now())) === null) return null;
            const done = await this.#sync(row.mediaId, send);
            await repository.done(row.mediaId);
            return done;
          });
          if (outcome != null) report[outcome] += 1;
        } catch (error) {
          report.failed += 1;
          logger.warn({ event: 'federation.postSyncFailed', err: error, mediaId: row.mediaId }, 'post not sent');
          await repository.postpone(row.mediaId, new Date(clock.now().getTime() + retryMs));
        }
      }
    }
    return report;
  }

  async #sync(mediaId: string, send: SendPostActivity): Promise<'created' | 'updated' | 'deleted' | null> {
    const { repository, posts, clock } = this.#deps;
    const post = await posts.publicPost(mediaId);
    const sent = await repository.sent(mediaId);
    if (post !== null) {
      const digest = postDigest(post);
      if (sent?.digest === digest) return null;
      const kind = sent === null ? 'create' : 'update';
      if (!(await send({ kind, post }))) return null;
      await repository.recordSent({ mediaId, ownerId: post.ownerId, digest, sentAt: clock.now() });
      return kind === 'create' ? 'created' : 'updated';
    }
    if (sent === null) return null;
    const delivered = await send({ kind: 'delete', mediaId, ownerId: sent.ownerId });
    await repository.forgetSent(mediaId);
    return delivered ? 'deleted' : null;
  }
}
