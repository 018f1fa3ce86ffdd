/**
 * Follow rules: never oneself, at most once (409 alreadyFollowing), unknown users are 404, and so are
 * users others may not see (banned or being deleted: accounts' read-model.ts `isVisibleUser`). A new
 * follow publishes `follow.created` in its transaction: notifications announce it, gamification
 * rewards it (see their subscriptions).
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

/** A user on one side of a follow, and when the follow began. */
export type { FollowedUser };

export interface Relationship {
  userId: string;
  following: Date | null;
  followedBy: Date | null;
}

export interface FollowsServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: FollowsRepository;
  users: UsersService;
  clock: Clock;
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

  async follow(followerId: string, targetId: string): Promise<Relationship> {
    if (followerId === targetId) {
      throw new AppError('cannotFollowSelf', { source: { parameter: 'targetUserId' } });
    }
    await this.#deps.transactions.run(async () => {
      // The followee first (the lock order): follow.created changes their experience and notifications.
      await this.#deps.users.lock(targetId);
      // Under the followee's lock: a block between the two (which locks both) is seen, or waits for this.
      const followee = await this.#requireUser(targetId, 'targetUserId', followerId);
      const follower = await this.#requireUser(followerId, 'targetUserId', null);
      if (!(await this.#deps.repository.insert(followerId, followee.id, this.#deps.clock.now()))) {
        throw new AppError('alreadyFollowing', { source: { parameter: 'targetUserId' } });
      }
      await this.#deps.events.publish('follow.created', {
        follower,
        followee,
        firstTime: await this.#deps.repository.markRewarded(followerId, followee.id),
        followersCount: await this.#deps.repository.followersCount(followee.id),
      });
    });
    return this.relationship(followerId, targetId);
  }

  /** Idempotent: unfollowing someone not followed is fine; an unknown user is 404. */
  async unfollow(followerId: string, targetId: string): Promise<void> {
    await this.#requireUser(targetId, 'targetUserId', followerId);
    await this.#deps.repository.delete(followerId, targetId);
  }

  /** Every follow of the user, both ways (a remote actor whose domain an operator rejects); how many went. */
  removeAllOf(userId: string): Promise<number> {
    return this.#deps.repository.deleteAllOf(userId);
  }

  async relationship(viewerId: string, userId: string, parameter = 'userId'): Promise<Relationship> {
    await this.#requireUser(userId, parameter, viewerId);
    const [following, followedBy] = await Promise.all([
      this.#deps.repository.find(viewerId, userId),
      this.#deps.repository.find(userId, viewerId),
    ]);
    return { userId, following: following?.createdAt ?? null, followedBy: followedBy?.createdAt ?? null };
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
