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

export class FollowsService {
  private readonly transactions: Transactions;
  private readonly events: EventBus;
  private readonly repository: FollowsRepository;
  private readonly users: UsersService;
  private readonly clock: Clock;

  constructor(
    transactions: Transactions,
    events: EventBus,
    repository: FollowsRepository,
    users: UsersService,
    clock: Clock,
  ) {
    this.transactions = transactions;
    this.events = events;
    this.repository = repository;
    this.users = users;
    this.clock = clock;
  }

  async #requireUser(id: string, parameter: string): Promise<UserRow> {
    const user = await this.users.findVisible(id);
    if (user === null) throw new AppError('notFound', { source: { parameter }, detail: 'no such user' });
    return user;
  }

  async follow(followerId: string, targetId: string): Promise<Relationship> {
    if (followerId === targetId) {
      throw new AppError('cannotFollowSelf', { source: { parameter: 'targetUserId' } });
    }
    await this.transactions.run(async () => {
      // The followee first (the lock order): follow.created changes their experience and notifications.
      await this.users.lock(targetId);
      const followee = await this.#requireUser(targetId, 'targetUserId');
      const follower = await this.#requireUser(followerId, 'targetUserId');
      if (!(await this.repository.insert(followerId, followee.id, this.clock.now()))) {
        throw new AppError('alreadyFollowing', { source: { parameter: 'targetUserId' } });
      }
      await this.events.publish('follow.created', {
        follower,
        followee,
        firstTime: await this.repository.markRewarded(followerId, followee.id),
        followersCount: await this.repository.followersCount(followee.id),
      });
    });
    return this.relationship(followerId, targetId);
  }

  /** Idempotent: unfollowing someone not followed is fine; an unknown user is 404. */
  async unfollow(followerId: string, targetId: string): Promise<void> {
    await this.#requireUser(targetId, 'targetUserId');
    await this.repository.delete(followerId, targetId);
  }

  async relationship(viewerId: string, userId: string, parameter = 'userId'): Promise<Relationship> {
    await this.#requireUser(userId, parameter);
    const [following, followedBy] = await Promise.all([
      this.repository.find(viewerId, userId),
      this.repository.find(userId, viewerId),
    ]);
    return { userId, following: following?.createdAt ?? null, followedBy: followedBy?.createdAt ?? null };
  }

  /** How many follow the user and how many they follow (rows as they are, whoever is on the other side). */
  async counts(userId: string): Promise<{ followers: number; following: number }> {
    const [followers, following] = await Promise.all([
      this.repository.followersCount(userId),
      this.repository.followingCount(userId),
    ]);
    return { followers, following };
  }

  async following(userId: string, page: PageRequest): Promise<FollowedUser[]> {
    await this.#requireUser(userId, 'userId');
    return this.repository.following(userId, page);
  }

  async followers(userId: string, page: PageRequest): Promise<FollowedUser[]> {
    await this.#requireUser(userId, 'userId');
    return this.repository.followers(userId, page);
  }
}
