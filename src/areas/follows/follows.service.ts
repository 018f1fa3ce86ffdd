/**
 * Follow rules: never oneself, at most once (409 alreadyFollowing), unknown users are 404. A new
 * follow, in one transaction: the row, a follow.received notification (dedup per actor), experience
 * for the followed user the first time this pair follows, and the ambassador badge by followers count.
 */
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { PageRequest } from '../../platform/http/pagination.ts';
import type { UserRow } from '../accounts/tables.ts';
import type { GamificationService } from '../gamification/gamification.service.ts';
import type { NotificationDispatcher } from '../notifications/dispatch.service.ts';
import { dedupKeys } from '../notifications/kinds.ts';
import type { FollowsRepository } from './follows.repository.ts';

/** Experience given to the followed user, once per follower. */
export const experiencePerFollowReceived = 10;

export interface Relationship {
  userId: string;
  following: Date | null;
  followedBy: Date | null;
}

export const displayNameOf = (user: UserRow) => user.nickname ?? user.username ?? user.id.replaceAll('-', '');

export class FollowsService {
  private readonly db: Db;
  private readonly repository: FollowsRepository;
  private readonly dispatcher: NotificationDispatcher;
  private readonly gamification: GamificationService;
  private readonly clock: Clock;

  constructor(
    db: Db,
    repository: FollowsRepository,
    dispatcher: NotificationDispatcher,
    gamification: GamificationService,
    clock: Clock,
  ) {
    this.db = db;
    this.repository = repository;
    this.dispatcher = dispatcher;
    this.gamification = gamification;
    this.clock = clock;
  }

  async #requireUser(id: string, parameter: string, repository = this.repository): Promise<UserRow> {
    const user = await repository.findUser(id);
    if (user === null) throw new AppError('notFound', { source: { parameter }, detail: 'no such user' });
    return user;
  }

  async follow(followerId: string, targetId: string): Promise<Relationship> {
    if (followerId === targetId) {
      throw new AppError('cannotFollowSelf', { source: { parameter: 'targetUserId' } });
    }
    await this.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const repository = this.repository.on(tx);
      const target = await this.#requireUser(targetId, 'targetUserId', repository);
      const actor = await this.#requireUser(followerId, 'targetUserId', repository);
      if (!(await repository.insert(followerId, target.id, this.clock.now()))) {
        throw new AppError('alreadyFollowing', { source: { parameter: 'targetUserId' } });
      }
      await this.dispatcher.dispatch(
        target.id,
        'follow.received',
        { actorId: actor.id, actorUsername: actor.username, actorDisplayName: displayNameOf(actor) },
        dedupKeys.followReceived(actor.id),
        tx,
      );
      if (await repository.markRewarded(followerId, target.id)) {
        await this.gamification.awardExperience(target.id, experiencePerFollowReceived, 'follow.received', tx);
      }
      await this.gamification.recordBadgeProgress(
        target.id,
        'ambassador',
        await repository.followersCount(target.id),
        tx,
      );
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

  async following(userId: string, page: PageRequest) {
    await this.#requireUser(userId, 'userId');
    return this.repository.following(userId, page);
  }

  async followers(userId: string, page: PageRequest) {
    await this.#requireUser(userId, 'userId');
    return this.repository.followers(userId, page);
  }
}
