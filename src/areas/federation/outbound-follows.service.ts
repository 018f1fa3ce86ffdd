/**
 * Local users following remote accounts (docs/api.md, Federation). A follow of a remote account is
 * asked: the actor is found (WebFinger for a handle) and kept as a shadow user, a `Follow` is queued
 * for its inbox, and the request waits, pending, for the remote server's answer. Its `Accept` stores
 * the follow through the follows area (counters, lists); its `Reject` drops the request, or the follow
 * when it comes later. Unfollowing sends `Undo(Follow)`.
 *
 * Both ways of asking (`POST /api/users/me/following/remote` with a handle, and
 * `POST /api/users/me/following/{id}` of a shadow) end in `request`, which follows reaches through its
 * RemoteFollowingGate.
 */
import type { Context } from '@fedify/fedify';
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { FollowsService, RemoteFollowing, RemoteFollowRequest } from '../follows/public.ts';
import type { OutboundFollowActivities } from './outbound-follow-activities.ts';
import { followRetryBatch, followSends, nextFollowAttempt } from './outbound-follow-retries.ts';
import type { OutboundFollowListed, OutboundFollowsRepository } from './outbound-follows.repository.ts';
import type { RemoteActorsService } from './remote-actors.service.ts';
import { parseRemoteHandle } from './remote-handles.ts';
import type { OutboundFollowRow } from './tables.ts';

/** What sending needs: a context of this server and the activities, loaded with Fedify on first use. */
export type OutboundSender = () => Promise<{ ctx: Context<null>; activities: OutboundFollowActivities }>;

export interface OutboundFollowsServiceDeps {
  publicUrl: string;
  allowPrivateAddress: boolean;
  transactions: Transactions;
  repository: OutboundFollowsRepository;
  remoteActors: RemoteActorsService;
  follows: FollowsService;
  clock: Clock;
  sender: OutboundSender;
}

/** Which of our follows an incoming Accept or Reject answers. */
export interface FollowAnswer {
  /** The remote actor answering (the activity's signed actor). */
  actorUri: string;
  /** The id of our Follow it names, when it names one. */
  followUri: string | null;
  /** The local user the Follow it embeds came from, when it embeds one. */
  localUserId: string | null;
}

export class OutboundFollowsService implements RemoteFollowing {
  readonly #deps: OutboundFollowsServiceDeps;

  constructor(deps: OutboundFollowsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * `POST /api/users/me/following/remote`: the account the handle names, found and kept, then asked
   * as `POST /api/users/me/following/{id}` asks it (the follows area's rules: blocks, oneself, 409
   * when already followed).
   */
  async followHandle(userId: string, handle: string): Promise<OutboundFollowListed> {
    const parsed = parseRemoteHandle(handle, this.#deps.publicUrl);
    const { remoteActors } = this.#deps;
    // A domain operators reject is not even asked (nor is its actor fetched, wherever WebFinger points).
    if (await remoteActors.rejectsHost(parsed.kind === 'acct' ? parsed.host : parsed.url.host)) throw noAccount();
    const { ctx, activities } = await this.#deps.sender();
    const profile = await activities.lookup(ctx, parsed, this.#deps.allowPrivateAddress, remoteActors);
    const actor = profile === null ? null : await remoteActors.resolve(profile.uri, async () => profile);
    if (actor === null) throw noAccount();
    await this.#deps.follows.follow(userId, actor.userId);
    return this.#listed(userId, actor.userId);
  }

  /** The follow request: a Follow queued (again, under the same id, when still pending). */
  async request(userId: string, remoteUserId: string): Promise<RemoteFollowRequest> {
    const known = await this.#deps.repository.find(userId, remoteUserId);
    if (known?.state === 'accepted') return { state: 'accepted', requestedAt: known.requestedAt };
    const actor = await this.#deps.remoteActors.ofUser(remoteUserId);
    if (actor === null)
      throw new AppError('notFound', { source: { parameter: 'targetUserId' }, detail: 'no such user' });
    const { ctx, activities } = await this.#deps.sender();
    const row = await this.#deps.transactions.run(async () => {
      const now = this.#deps.clock.now();
      const saved = await this.#deps.repository.request({
        userId,
        remoteUserId,
        followUri: `${ctx.getActorUri(userId).href}#follows/${crypto.randomUUID()}`,
        requestedAt: now,
        nextAttemptAt: nextFollowAttempt(now, 1),
      });
      // Queued in the request's transaction: the Follow leaves if and only if the request is kept.
      await activities.sendFollow(ctx, userId, actor, saved.followUri);
      return saved;
    });
    return { state: row.state, requestedAt: row.requestedAt };
  }

  /**
   * The job federation-queue: each pending request due is sent again (the same Follow), or, after its
   * last send (outbound-follow-retries.ts), expired with an Undo; a request to an actor banned here or
   * on a rejected domain expires at once. Each in a transaction of its own with its activity queued.
   */
  async retryDue(stopped: () => boolean): Promise<{ resent: number; expired: number }> {
    const { repository, remoteActors, transactions, clock } = this.#deps;
    const outcome = { resent: 0, expired: 0 };
    const due = await repository.due(clock.now(), followRetryBatch);
    if (due.length === 0) return outcome;
    const { ctx, activities } = await this.#deps.sender();
    for (const row of due) {
      if (stopped()) break;
      const known = await remoteActors.ofUser(row.remoteUserId);
      const actor = known === null ? null : await remoteActors.findActing(known.actorUri);
      await transactions.run(async () => {
        if (actor !== null && row.attempts < followSends) {
          if (!(await repository.claimRetry(row, nextFollowAttempt(clock.now(), row.attempts + 1)))) return;
          await activities.sendFollow(ctx, row.userId, actor, row.followUri);
          outcome.resent += 1;
        } else {
          if (!(await repository.expire(row))) return;
          if (known !== null) await activities.sendUndoFollow(ctx, row.userId, known, row.followUri);
          outcome.expired += 1;
        }
      });
    }
    return outcome;
  }

  /** The request or follow withdrawn (follows' unfollow): Undo(Follow) queued when there was one. */
  async withdraw(userId: string, remoteUserId: string): Promise<void> {
    if ((await this.#deps.repository.find(userId, remoteUserId)) === null) return;
    const actor = await this.#deps.remoteActors.ofUser(remoteUserId);
    if (actor === null) return;
    const { ctx, activities } = await this.#deps.sender();
    await this.#deps.transactions.run(async () => {
      const row = await this.#deps.repository.delete(userId, remoteUserId);
      if (row !== null) await activities.sendUndoFollow(ctx, userId, actor, row.followUri);
    });
  }

  /**
   * A block between a local user and a remote account (`user.blocked`, in its transaction): as the
   * block ends the follows both ways, the local user's request or follow is withdrawn (Undo sent).
   */
  async blocked(blockerId: string, blockedId: string): Promise<void> {
    await this.withdraw(blockerId, blockedId);
    await this.withdraw(blockedId, blockerId);
  }

  async pendingSince(userId: string, remoteUserId: string): Promise<Date | null> {
    const row = await this.#deps.repository.find(userId, remoteUserId);
    return row?.state === 'pending' ? row.requestedAt : null;
  }

  /** The remote server's Accept: the follow stored (counters, lists). False when it answers nothing of ours. */
  async accepted(answer: FollowAnswer): Promise<boolean> {
    const row = await this.#answered(answer);
    if (row === null) return false;
    await this.#deps.transactions.run(async () => {
      await this.#deps.follows.followAccepted(row.userId, row.remoteUserId);
      if (row.state === 'pending')
        await this.#deps.repository.accept(row.userId, row.remoteUserId, this.#deps.clock.now());
    });
    return true;
  }

  /** The remote server's Reject, at once or later: the request and the follow are gone. */
  async rejected(answer: FollowAnswer): Promise<boolean> {
    const row = await this.#answered(answer);
    if (row === null) return false;
    await this.#deps.transactions.run(async () => {
      await this.#deps.repository.delete(row.userId, row.remoteUserId);
      await this.#deps.follows.followRefused(row.userId, row.remoteUserId);
    });
    return true;
  }

  /** The user's remote follows, pending and accepted, newest request first. */
  list(userId: string, page: PageRequest): Promise<OutboundFollowListed[]> {
    return this.#deps.repository.list(userId, page);
  }

  /** Erasure: the user's requests, and those to the user when it is a shadow. */
  eraseUser(userId: string): Promise<void> {
    return this.#deps.repository.eraseUser(userId);
  }

  /** The follow an answer names: by our Follow's id, else by the local user its Follow came from. */
  async #answered({ actorUri, followUri, localUserId }: FollowAnswer): Promise<OutboundFollowRow | null> {
    // A banned actor's (or a rejected domain's) answer changes nothing: the request stays pending.
    const actor = await this.#deps.remoteActors.findActing(actorUri);
    if (actor === null) return null;
    const byId = followUri === null ? null : await this.#deps.repository.findByFollowUri(followUri);
    const row = byId ?? (localUserId === null ? null : await this.#deps.repository.find(localUserId, actor.userId));
    // Only the actor followed may answer for it.
    return row?.remoteUserId === actor.userId ? row : null;
  }

  async #listed(userId: string, remoteUserId: string): Promise<OutboundFollowListed> {
    const row = await this.#deps.repository.listedOne(userId, remoteUserId);
    if (row === null) throw new AppError('notFound', { source: { pointer: '/handle' }, detail: 'no such account' });
    return row;
  }
}

const noAccount = () =>
  new AppError('notFound', {
    source: { pointer: '/handle' },
    detail: 'no such account: its server does not know it, could not be reached, or is blocked here',
  });
