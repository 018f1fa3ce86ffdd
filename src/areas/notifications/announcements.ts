/**
 * The notifications other areas' events announce, dispatched in the producing transaction (the
 * notification commits or rolls back with the follow, the award or the badge): follows'
 * follow.received, gamification's badge.earned, user.level.up and user.title.up.
 */
import type { EventBus } from '../../platform/events/domain-events.ts';
import '../accounts/events.ts';
import { displayNameOf, publicUsernameOf, type RelationsService } from '../accounts/public.ts';
import '../gamification/events.ts';
import { dedupKeys } from './kinds.ts';
import type { NotificationDispatcher } from './notification-dispatcher.ts';

export function subscribeAnnouncements(
  events: EventBus,
  dispatcher: NotificationDispatcher,
  relations: RelationsService,
): void {
  events.subscribe(
    'follow.created',
    'inTransaction',
    'notifications.followReceived',
    async ({ follower, followee }) => {
      // A follower the followee muted with their notifications is not announced (a block refuses the follow).
      if ((await relations.hiddenFrom(followee.id, 'notifications')).has(follower.id)) return;
      await dispatcher.dispatch(
        followee.id,
        'follow.received',
        {
          actorId: follower.id,
          actorUsername: publicUsernameOf(follower),
          actorDisplayName: displayNameOf(follower),
        },
        dedupKeys.followReceived(follower.id),
      );
    },
  );
  events.subscribe('user.levelReached', 'inTransaction', 'notifications.levelUp', async ({ userId, ...data }) => {
    await dispatcher.dispatch(userId, 'user.level.up', data, dedupKeys.levelUp(userId, data.level));
  });
  events.subscribe('user.titleReached', 'inTransaction', 'notifications.titleUp', async ({ userId, ...data }) => {
    await dispatcher.dispatch(userId, 'user.title.up', data, dedupKeys.titleUp(userId, data.titleSlug));
  });
  events.subscribe('badge.earned', 'inTransaction', 'notifications.badgeEarned', async ({ userId, ...data }) => {
    await dispatcher.dispatch(userId, 'badge.earned', data, dedupKeys.badgeEarned(data.badgeId, data.level));
  });
  // A block takes the follow notifications between the two out of both feeds.
  events.subscribe('user.blocked', 'inTransaction', 'notifications.forgetBlocked', async ({ blockerId, blockedId }) => {
    await dispatcher.forgetBetween(blockerId, blockedId);
  });
  // While the actor of follow notifications is hidden (banned, being deleted), the feed shows them unlinked.
  events.subscribe('user.banned', 'inTransaction', 'notifications.hideActor', async ({ userId }) => {
    await dispatcher.setActorHidden(userId, true);
  });
  events.subscribe('user.unbanned', 'inTransaction', 'notifications.showActor', async ({ userId }) => {
    await dispatcher.setActorHidden(userId, false);
  });
  // An erased account's name frozen in follow notifications becomes its anonymous name.
  events.subscribe(
    'user.anonymized',
    'inTransaction',
    'notifications.renameErasedActor',
    async ({ userId, username }) => {
      await dispatcher.renameActor(userId, username, username);
    },
  );
}
