/**
 * What earns experience and badge progress: gamification's subscriptions to other areas' events, in
 * the producing transaction (a reward commits or rolls back with the action). Badges advance by their
 * `metric` (migration 0120): an event that reports a metric's new value raises every badge measuring it.
 */
import type { EventBus } from '../../platform/events/domain-events.ts';
import type { GamificationService } from './gamification.service.ts';

/** Experience for what others do to a user's content, and for publishing. */
export const experienceFor = {
  /** To the followed user, once per follower (following again after an unfollow earns nothing). */
  followReceived: 10,
  /** To a media's owner, for the first like of each user on it (never for one's own). */
  likeReceived: 2,
  /** To the photographer, for each published post. */
  mediaPublished: 10,
} as const;

export function subscribeRewards(events: EventBus, gamification: GamificationService): void {
  events.subscribe('follow.created', 'inTransaction', 'gamification.followRewards', async (follow) => {
    const followeeId = follow.followee.id;
    if (follow.firstTime)
      await gamification.awardExperience(followeeId, experienceFor.followReceived, 'follow.received');
    await gamification.recordMetric(followeeId, 'followers', follow.followersCount);
  });
  events.subscribe('reaction.liked', 'inTransaction', 'gamification.likeRewards', async (like) => {
    if (like.firstLikeOfPair) {
      await gamification.awardExperience(like.ownerId, experienceFor.likeReceived, 'reaction.likeReceived');
    }
    if (like.ownerId !== like.likerId)
      await gamification.recordMetric(like.ownerId, 'likesReceived', like.likesReceived);
  });
  events.subscribe(
    'media.published',
    'inTransaction',
    'gamification.publishRewards',
    async ({ media, publishedCount }) => {
      await gamification.awardExperience(media.ownerId, experienceFor.mediaPublished, 'media.published');
      await gamification.recordMetric(media.ownerId, 'photosPublished', publishedCount);
    },
  );
  events.subscribe('bookmark.created', 'inTransaction', 'gamification.curatorProgress', ({ userId, bookmarksSaved }) =>
    gamification.recordMetric(userId, 'bookmarksSaved', bookmarksSaved).then(() => undefined),
  );
}
