/**
 * What earns experience and badge progress: gamification's subscriptions to other areas' events, in
 * the producing transaction (a reward commits or rolls back with the action). Badges advance by their
 * `metric` (migration 0120): an event that reports a metric's new value raises every badge measuring it.
 * Rewarding locks the user rewarded; an event published under a media's lock (like, bookmark, comment)
 * rewards only users its producer locked before the media (media's lockForWrite, the lock order).
 * A redeemed coupon gives its rewards here too (`coupon.redeemed`, under the user's lock).
 */
import type { EventBus } from '../../platform/events/domain-events.ts';
import '../coupons/events.ts';
import type { GamificationService } from './gamification.service.ts';

/** Experience for what others do to a user's content, and for publishing. */
export const experienceFor = {
  /** To the followed user, once per follower (following again after an unfollow earns nothing). */
  followReceived: 10,
  /** To a media's owner, for the first like of each user on it (never for one's own). */
  likeReceived: 2,
  /** To the photographer, for each published post. */
  mediaPublished: 10,
  /** To the author of each comment on someone else's media (each comment once; none on one's own media). */
  commentWritten: 1,
  /**
   * To a sponsor, once per account registered with their code, when that account confirms its e-mail
   * (no badge measures sponsorship yet, so this is experience only).
   */
  sponsoredAccountConfirmed: 50,
} as const;

/**
 * The most experience one user earns from each reason in one UTC day (docs/api.md): past it, the
 * action still happens but earns nothing more that day. Badge rewards have none (each level pays once).
 */
export const dailyExperienceCeilings: ReadonlyMap<string, number> = new Map([
  ['follow.received', 200],
  ['reaction.likeReceived', 200],
  ['media.published', 100],
  ['comment.written', 20],
]);

/** A post deleted within this many hours of its publication takes back what publishing it earned. */
export const takeBackWithinHours = 24;

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
      const subject = { subjectId: media.id };
      await gamification.awardExperience(media.ownerId, experienceFor.mediaPublished, 'media.published', subject);
      await gamification.recordMetric(media.ownerId, 'photosPublished', publishedCount, subject);
    },
  );
  // Publishing then deleting must not farm experience: a post deleted soon after gives back what it earned.
  events.subscribe('media.deleted', 'inTransaction', 'gamification.publishTakeBack', async ({ media }) => {
    if (media.kind === 'post') await gamification.takeBack(media.ownerId, media.id, 'media.deleted');
  });
  events.subscribe('bookmark.created', 'inTransaction', 'gamification.curatorProgress', ({ userId, bookmarksSaved }) =>
    gamification.recordMetric(userId, 'bookmarksSaved', bookmarksSaved).then(() => undefined),
  );
  events.subscribe('comment.created', 'inTransaction', 'gamification.commentRewards', async (comment) => {
    if (comment.authorId !== comment.mediaOwnerId) {
      await gamification.awardExperience(comment.authorId, experienceFor.commentWritten, 'comment.written');
    }
    await gamification.recordMetric(comment.authorId, 'commentsWritten', comment.commentsWritten);
  });
  // Published once per account (accounts confirms under the user's lock), so the sponsor earns once.
  events.subscribe('user.emailConfirmed', 'inTransaction', 'gamification.sponsorshipRewards', async (confirmed) => {
    if (confirmed.sponsoredBy === null) return;
    await gamification.awardExperience(
      confirmed.sponsoredBy,
      experienceFor.sponsoredAccountConfirmed,
      'sponsorship.confirmed',
    );
  });
  // A coupon's rewards in its order; an error (a badge gone since the coupon was made) refuses the redemption.
  events.subscribe('coupon.redeemed', 'inTransaction', 'gamification.couponRewards', async ({ userId, rewards }) => {
    for (const reward of rewards) {
      if (reward.kind === 'experience') await gamification.awardExperience(userId, reward.amount, 'coupon.redeemed');
      else await gamification.awardBadgeLevel(userId, reward.badge, reward.level);
    }
  });
}
