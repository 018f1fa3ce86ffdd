/**
 * Follow rules: never oneself, at most once (409 alreadyFollowing), unknown users are 404, and so are
 * users others may not see (banned or being deleted: accounts' read-model.ts `isVisibleUser`). A new
 * follow publishes `follow.created` in its transaction: notifications announce it, gamification
 * rewards it (see their subscriptions); not the follow of a remote account, which is asked of its
 * server through federation (remote-following.ts) and stored once accepted.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { UsersService } from '../accounts/public.ts';
import type { UserRow } from '../accounts/read-model.ts';
import './events.ts';
import type { FollowedUser, FollowsRepository } from './follows.repository.ts';
import type { RemoteFollowingGate } from './remote-following.ts';

/** A user on one side of a follow, and when the follow began. */
export type { FollowedUser };

export interface Relationship {
  userId: string;
  following: Date | null;
  followedBy: Date | null;
  /** A remote account asked to be followed and not answered yet: when (docs/api.md, Federation). */
  requested: Date | null;
}

export interface FollowsServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: FollowsRepository;
  users: UsersService;
  clock: Clock;
  /** Federation, when on: a follow of a remote account goes through it. */
  remoteFollowing: RemoteFollowingGate;
}

export class FollowsService {
  readonly #deps: FollowsServiceDeps;

  constructor(deps: FollowsServiceDeps) {
    this.#deps = deps;
  }

  /** The user, when the viewer may see them (not hidden, no block between them: accounts' read model). */
  async #requireUser(id: string, parameter: string, viewerId: string | null): Promise<UserRow> {
    const user = await this.#deps.users.findVisibleTo(id, viewerId);
    if (user === null) throw new AppError('notFound', { source: { parameter }, detail: 'no such user' });
    return user;
  }

  /**
   * Follows a user. A remote account (a shadow user) is asked through federation instead: nothing is
   * stored here until its server accepts (`followAccepted`), and the relationship says `requested`.
   */
  async follow(followerId: string, targetId: string): Promise<Relationship> {
    if (followerId === targetId) {
      throw new AppError('cannotFollowSelf', { source: { parameter: 'targetUserId' } });
    }
    const target = await this.#requireUser(targetId, 'targetUserId', followerId);
    if (target.remoteHandle !== null) {
      const remoteFollowing = this.#deps.remoteFollowing.current;
      if (remoteFollowing === null) throw new AppError('federationOff', { source: { parameter: 'targetUserId' } });
      const { state } = await remoteFollowing.request(followerId, target.id);
      if (state === 'accepted') throw new AppError('alreadyFollowing', { source: { parameter: 'targetUserId' } });
      return this.relationship(followerId, target.id, 'targetUserId');
    }
    if (!(await this.#store(followerId, target.id))) {
      throw new AppError('alreadyFollowing', { source: { parameter: 'targetUserId' } });
    }
    return this.relationship(followerId, target.id);
  }

  /**
   * A remote account's server accepted the follower's Follow (federation's Accept handler): the follow
   * is stored as any other (counters, `follow.created`). Nothing changes when it already was.
   */
  async followAccepted(followerId: string, remoteUserId: string): Promise<void> {
    await this.#store(followerId, remoteUserId);
  }

  /** The follow stored, with its event; false when it already was. */
  async #store(followerId: string, targetId: string): Promise<boolean> {
    return this.#deps.transactions.run(async () => {
      // The followee first (the lock order): follow.created changes their experience and notifications.
      await this.#deps.users.lock(targetId);
      // Under the followee's lock: a block between the two (which locks both) is seen, or waits for this.
      const followee = await this.#requireUser(targetId, 'targetUserId', followerId);
      const follower = await this.#requireUser(followerId, 'targetUserId', null);
      if (!(await this.#deps.repository.insert(followerId, followee.id, this.#deps.clock.now()))) return false;
      // A remote account followed hears of it from its own server (the Follow it accepted): its shadow
      // here gets no notification, experience or badge.
      if (followee.remoteHandle !== null) return true;
      await this.#deps.events.publish('follow.created', {
        follower,
        followee,
        firstTime: await this.#deps.repository.markRewarded(followerId, followee.id),
        followersCount: await this.#deps.repository.followersCount(followee.id),
      });
      return true;
    });
  }

  /** Idempotent: unfollowing someone not followed is fine; an unknown user is 404. */
  async unfollow(followerId: string, targetId: string): Promise<void> {
    const target = await this.#requireUser(targetId, 'targetUserId', followerId);
    await this.#deps.repository.delete(followerId, target.id);
    // A remote account is told (Undo), whether it had accepted or not yet answered.
    if (target.remoteHandle !== null) await this.#deps.remoteFollowing.current?.withdraw(followerId, target.id);
  }

  /**
   * The remote account's server refused the follow, or ended it (federation's Reject handler): the
   * follow goes, if it was stored.
   */
  async followRefused(followerId: string, remoteUserId: string): Promise<void> {
    await this.#deps.repository.delete(followerId, remoteUserId);
  }

  /** Every follow of the user, both ways (a remote actor whose domain an operator rejects); how many went. */
  removeAllOf(userId: string): Promise<number> {
    return this.#deps.repository.deleteAllOf(userId);
  }

  async relationship(viewerId: string, userId: string, parameter = 'userId'): Promise<Relationship> {
    const user = await this.#requireUser(userId, parameter, viewerId);
    const remoteFollowing = user.remoteHandle === null ? null : this.#deps.remoteFollowing.current;
    const [following, followedBy, requested] = await Promise.all([
      this.#deps.repository.find(viewerId, userId),
      this.#deps.repository.find(userId, viewerId),
      remoteFollowing?.pendingSince(viewerId, user.id) ?? null,
    ]);
    return {
      userId,
      following: following?.createdAt ?? null,
      followedBy: followedBy?.createdAt ?? null,
      requested,
    };
  }

  /** How many follow the user and how many they follow (rows as they are, whoever is on the other side). */
  async counts(userId: string): Promise<{ followers: number; following: number }> {
    const [followers, following] = await Promise.all([
      this.#deps.repository.followersCount(userId),
      this.#deps.repository.followingCount(userId),
    ]);
    return { followers, following };
  }

  /** Whom the user follows, as the viewer may see them (null: nobody signed in). */
  async following(userId: string, page: PageRequest, viewerId: string | null = null): Promise<FollowedUser[]> {
    await this.#requireUser(userId, 'userId', viewerId);
    return this.#deps.repository.following(userId, page, viewerId);
  }

  /** Who follows the user, as the viewer may see them (null: nobody signed in). */
  async followers(userId: string, page: PageRequest, viewerId: string | null = null): Promise<FollowedUser[]> {
    await this.#requireUser(userId, 'userId', viewerId);
    return this.#deps.repository.followers(userId, page, viewerId);
  }
}
